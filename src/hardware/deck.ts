// Deck files: which RFID tag (UID) is stuck on which card of which pack.
//
// Format (JSON, UTF-8; documented in hardware/decks.md):
//
//   { "deck": "club-red-1", "version": 1, "cards": { "04A1B2C3D4E5F6": "SA", "04C29A5B7F3A80": "SK", ... } }
//
// - `deck`: the pack's id, 1-64 characters from [A-Za-z0-9._-]. A table uses two packs, so every
//   tag maps to a card *and* a deck.
// - `version`: the file format version, 1.
// - `cards`: UID → card. UIDs are ISO 14443A UIDs as the bridge writes them (PROTOCOL.md §5): 4, 7
//   or 10 bytes in uppercase hex. Cards use DESIGN §3 notation (`SA`, `HT`); `S10` or `♠A` are read
//   too and written back as `ST`/`SA`. A card appears at most once in a deck. A deck may be partial
//   (an enrolment in progress); `missingCards` says what is left.
//
// Several decks load into one `DeckSet`; a UID found in two decks is a load error, because the
// table could not tell the two cards apart.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { formatCard, RANK_LETTERS, SUIT_LETTERS, tryParseCard } from '../cards/card.js';
import { writeFileAtomicSync } from '../journal/atomic.js';
import { isUidHex } from './protocol.js';

export const DECK_FORMAT_VERSION = 1;

export interface DeckFile {
  deck: string;
  version: 1;
  cards: Record<string, string>;
}

export interface DeckEntry {
  card: string;
  deck: string;
}

export class DeckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeckError';
  }
}

/** The 52 cards in bridge-diagram order: spades, hearts, diamonds, clubs, each from the ace down. */
export const BRIDGE_ORDER: readonly string[] = [...SUIT_LETTERS].flatMap((s) =>
  [...RANK_LETTERS].reverse().map((r) => s + r),
);

const DECK_ID_RE = /^[A-Za-z0-9._-]{1,64}$/;

export function isDeckId(s: unknown): s is string {
  return typeof s === 'string' && DECK_ID_RE.test(s);
}

/** Checks an already-parsed deck object; returns it normalised (canonical card notation). */
export function validateDeck(obj: unknown, source = 'deck'): DeckFile {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new DeckError(`${source}: a deck file is a JSON object`);
  const o = obj as Record<string, unknown>;
  if (!isDeckId(o.deck)) {
    throw new DeckError(`${source}: "deck" must be the pack's id, 1-64 characters from A-Z a-z 0-9 . _ - (got ${JSON.stringify(o.deck)})`);
  }
  if (o.version !== DECK_FORMAT_VERSION) {
    throw new DeckError(`${source}: "version" must be ${DECK_FORMAT_VERSION} (got ${JSON.stringify(o.version)})`);
  }
  if (typeof o.cards !== 'object' || o.cards === null || Array.isArray(o.cards)) {
    throw new DeckError(`${source}: "cards" must be an object from tag UID to card, e.g. {"04A1B2C3D4E5F6": "SA"}`);
  }
  const cards: Record<string, string> = {};
  const uidOfCard = new Map<string, string>();
  for (const [uid, cardText] of Object.entries(o.cards as Record<string, unknown>)) {
    if (!isUidHex(uid)) {
      throw new DeckError(`${source}: "${uid}" is not a tag UID (4, 7 or 10 bytes in uppercase hex, e.g. 04A1B2C3D4E5F6)`);
    }
    if (typeof cardText !== 'string') throw new DeckError(`${source}: the card of tag ${uid} must be a string such as "SA"`);
    const parsed = tryParseCard(cardText);
    if (!parsed.ok) throw new DeckError(`${source}: tag ${uid}: ${parsed.error}`);
    const card = formatCard(parsed.value);
    const prev = uidOfCard.get(card);
    if (prev !== undefined) throw new DeckError(`${source}: ${card} appears twice in deck ${o.deck}, on tags ${prev} and ${uid}`);
    uidOfCard.set(card, uid);
    cards[uid] = card;
  }
  return { deck: o.deck, version: DECK_FORMAT_VERSION, cards };
}

/** Parses the text of a deck file. Errors name the source and the field. */
export function parseDeck(text: string, source = 'deck'): DeckFile {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (e) {
    throw new DeckError(`${source}: not valid JSON: ${(e as Error).message}`);
  }
  return validateDeck(obj, source);
}

/** The deck as file text: cards listed in bridge order, one per line, trailing newline. */
export function formatDeck(d: DeckFile): string {
  const rank = new Map(BRIDGE_ORDER.map((c, i) => [c, i]));
  const entries = Object.entries(d.cards).sort((a, b) => (rank.get(a[1]) ?? 99) - (rank.get(b[1]) ?? 99) || (a[0] < b[0] ? -1 : 1));
  const lines = entries.map(([uid, card]) => `    ${JSON.stringify(uid)}: ${JSON.stringify(card)}`);
  return `{\n  "deck": ${JSON.stringify(d.deck)},\n  "version": ${DECK_FORMAT_VERSION},\n  "cards": {${lines.length ? `\n${lines.join(',\n')}\n  ` : ''}}\n}\n`;
}

/** Cards of the 52 that the deck has no tag for, in bridge order. */
export function missingCards(d: DeckFile): string[] {
  const have = new Set(Object.values(d.cards));
  return BRIDGE_ORDER.filter((c) => !have.has(c));
}

/**
 * A deterministic deck for emulation and tests: 52 seven-byte UIDs starting 04 (NXP, as on
 * NTAG213), derived from SHA-256 of the deck id and the card. The same id always gives the same
 * UIDs; different ids give different UIDs. Avoids 0x88 (the cascade tag) in byte 3.
 */
export function virtualDeck(id: string): DeckFile {
  if (!isDeckId(id)) throw new DeckError(`"${id}" is not a deck id (1-64 characters from A-Z a-z 0-9 . _ -)`);
  const cards: Record<string, string> = {};
  for (const card of BRIDGE_ORDER) {
    for (let n = 0; ; n++) {
      const h = createHash('sha256').update(`tenace-virtual-deck\0${id}\0${card}\0${n}`).digest();
      if (h[2] === 0x88) continue;
      const uid = `04${h.subarray(0, 6).toString('hex').toUpperCase()}`;
      if (uid in cards) continue;
      cards[uid] = card;
      break;
    }
  }
  return { deck: id, version: DECK_FORMAT_VERSION, cards };
}

/** Reads and validates one deck file. */
export function loadDeckFile(path: string): DeckFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new DeckError(`${path}: cannot read the deck file: ${(e as Error).message}`);
  }
  return parseDeck(text, path);
}

/** Validates and writes a deck file atomically. */
export function writeDeckFile(path: string, d: DeckFile): void {
  writeFileAtomicSync(path, formatDeck(validateDeck(d, path)));
}

/** Several decks loaded together: UID → {card, deck}. */
export class DeckSet {
  readonly decks: readonly DeckFile[];
  private readonly byUid = new Map<string, DeckEntry>();
  private readonly byCard = new Map<string, string>();

  /** Throws DeckError when two decks share an id or a UID. */
  constructor(decks: Iterable<DeckFile> = []) {
    const list: DeckFile[] = [];
    const ids = new Set<string>();
    for (const raw of decks) {
      const d = validateDeck(raw, `deck ${(raw as { deck?: unknown }).deck}`);
      if (ids.has(d.deck)) throw new DeckError(`deck ${d.deck} is loaded twice`);
      ids.add(d.deck);
      for (const [uid, card] of Object.entries(d.cards)) {
        const prev = this.byUid.get(uid);
        if (prev) {
          throw new DeckError(`tag ${uid} is in two decks: ${prev.card} of ${prev.deck} and ${card} of ${d.deck}; re-enrol one of them`);
        }
        this.byUid.set(uid, { card, deck: d.deck });
        this.byCard.set(`${d.deck}#${card}`, uid);
      }
      list.push(d);
    }
    this.decks = list;
  }

  /** The card and deck of a tag, or undefined for a tag from no loaded deck. */
  lookup(uid: string): DeckEntry | undefined {
    return this.byUid.get(uid);
  }

  /** The UID of a card in a deck (the first deck when none is named). */
  uidOf(card: string, deck?: string): string | undefined {
    const id = deck ?? this.decks[0]?.deck;
    return id === undefined ? undefined : this.byCard.get(`${id}#${card}`);
  }

  get size(): number {
    return this.byUid.size;
  }
}

/** Loads deck files into a DeckSet (errors name the file). */
export function loadDecks(paths: readonly string[]): DeckSet {
  return new DeckSet(paths.map(loadDeckFile));
}
