// Deck enrolment: tap the 52 cards of a pack on a reader, in a stated order, to build its deck file.
//
// `Enrolment` is a pure state machine: feed it the UIDs of tag arrivals (`tap`) and it answers with
// what happened and what to ask for next. It knows nothing about ports or files; the CLI
// (src/cli/enrol.ts) wires it to a BridgeDriver, stdin/stdout and an atomic file write after every
// accepted card.
import { formatCard, tryParseCard } from '../cards/card.js';
import { BRIDGE_ORDER, type DeckFile, DeckSet, DECK_FORMAT_VERSION, isDeckId, validateDeck } from './deck.js';
import { isUidHex } from './protocol.js';

/**
 * `bridge`: spades, hearts, diamonds, clubs, each from the ace down to the two (the order of a
 * hand diagram). `suit`: clubs, diamonds, hearts, spades, each from the two up to the ace (a pack
 * sorted low to high).
 */
export type EnrolOrder = 'bridge' | 'suit';
export const ENROL_ORDERS: readonly EnrolOrder[] = ['bridge', 'suit'];

export function enrolmentOrder(order: EnrolOrder): string[] {
  if (order === 'bridge') return [...BRIDGE_ORDER];
  return [...BRIDGE_ORDER].reverse();
}

const RANK_NAMES: Record<string, string> = {
  A: 'ace', K: 'king', Q: 'queen', J: 'jack', T: 'ten', '9': 'nine', '8': 'eight', '7': 'seven',
  '6': 'six', '5': 'five', '4': 'four', '3': 'three', '2': 'two',
};
const SUIT_NAMES: Record<string, string> = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };

/** "the queen of hearts" for `HQ` (any notation `tryParseCard` reads). */
export function cardName(card: string): string {
  const r = tryParseCard(card);
  const c = r.ok ? formatCard(r.value) : card;
  return `the ${RANK_NAMES[c[1]] ?? c[1]} of ${SUIT_NAMES[c[0]] ?? c[0]}`;
}

export type TapResult =
  | { ok: true; card: string; uid: string; done: number; total: number; complete: boolean; message: string }
  | {
      ok: false;
      reason: 'already-in-deck' | 'in-other-deck' | 'bad-uid' | 'complete';
      uid: string;
      message: string;
    };

export interface EnrolmentOptions {
  deck: string;
  order?: EnrolOrder;
  /** A partial deck file of the same deck to resume from. */
  resume?: DeckFile;
  /** Other packs already enrolled: their tags are refused. */
  others?: DeckSet | readonly DeckFile[];
}

export class Enrolment {
  readonly deck: string;
  readonly order: readonly string[];
  readonly total = 52;
  private readonly cards = new Map<string, string>(); // uid → card
  private readonly enrolled = new Set<string>(); // cards
  private readonly history: string[] = []; // uids, in tap order
  private readonly others: DeckSet;

  constructor(opts: EnrolmentOptions) {
    if (!isDeckId(opts.deck)) throw new Error(`"${opts.deck}" is not a deck id (1-64 characters from A-Z a-z 0-9 . _ -)`);
    this.deck = opts.deck;
    this.order = enrolmentOrder(opts.order ?? 'bridge');
    this.others = opts.others instanceof DeckSet ? opts.others : new DeckSet(opts.others ?? []);
    if (opts.resume) {
      const d = validateDeck(opts.resume, 'resume file');
      if (d.deck !== this.deck) throw new Error(`the file to resume is deck "${d.deck}", not "${this.deck}"`);
      for (const [uid, card] of Object.entries(d.cards)) {
        const other = this.others.lookup(uid);
        if (other) throw new Error(`tag ${uid} (${card}) is also in deck ${other.deck} as ${other.card}`);
        this.cards.set(uid, card);
        this.enrolled.add(card);
        this.history.push(uid);
      }
    }
  }

  /** Cards enrolled so far. */
  get done(): number {
    return this.enrolled.size;
  }

  isComplete(): boolean {
    return this.enrolled.size === this.total;
  }

  /** The next card to tap, or undefined when all 52 are enrolled. */
  next(): string | undefined {
    return this.order.find((c) => !this.enrolled.has(c));
  }

  /** "12/52". */
  progress(): string {
    return `${this.done}/${this.total}`;
  }

  /** "Next: the queen of hearts (HQ)", or the closing line. */
  prompt(): string {
    const n = this.next();
    return n === undefined ? `All ${this.total} cards of deck ${this.deck} are enrolled.` : `Next: ${cardName(n)} (${n})`;
  }

  /** A tag arrived on the reader: enrol it as the next card, or say why not. */
  tap(uid: string): TapResult {
    if (!isUidHex(uid)) return { ok: false, reason: 'bad-uid', uid, message: `"${uid}" is not a tag UID` };
    const next = this.next();
    if (next === undefined) return { ok: false, reason: 'complete', uid, message: this.prompt() };
    const mine = this.cards.get(uid);
    if (mine !== undefined) {
      return {
        ok: false,
        reason: 'already-in-deck',
        uid,
        message: `That tag is already enrolled as ${cardName(mine)} (${mine}) in this deck. Put it aside and tap ${cardName(next)} (${next}).`,
      };
    }
    const other = this.others.lookup(uid);
    if (other) {
      return {
        ok: false,
        reason: 'in-other-deck',
        uid,
        message: `That tag belongs to deck ${other.deck}, where it is ${cardName(other.card)} (${other.card}). Is the card from the other pack? Tap ${cardName(next)} (${next}) of deck ${this.deck}.`,
      };
    }
    this.cards.set(uid, next);
    this.enrolled.add(next);
    this.history.push(uid);
    return {
      ok: true,
      card: next,
      uid,
      done: this.done,
      total: this.total,
      complete: this.isComplete(),
      message: `${this.progress()} ${next} = ${uid}`,
    };
  }

  /** Forgets the last enrolled card (a wrong card was tapped); returns it. */
  undo(): string | undefined {
    const uid = this.history.pop();
    if (uid === undefined) return undefined;
    const card = this.cards.get(uid)!;
    this.cards.delete(uid);
    this.enrolled.delete(card);
    return card;
  }

  /** The deck file so far (partial until complete). */
  toDeckFile(): DeckFile {
    return { deck: this.deck, version: DECK_FORMAT_VERSION, cards: Object.fromEntries(this.cards) };
  }
}
