// The last line of the privacy rule (DESIGN §6): before anything goes out on a public topic, scan it for cards that
// are not public yet. The projection is built not to leak; this guard makes a bug in it cost a degraded message
// instead of a hidden card on a spectator's phone. Pure (its memo of what a string names is only a cache), so tests
// and the browser can use it.

const SYMBOL_SUIT: Record<string, string> = { '♠': 'S', '♤': 'S', '♥': 'H', '♡': 'H', '♦': 'D', '♢': 'D', '♣': 'C', '♧': 'C' };

// A card written as the engine and the table log write it: suit letter then rank (SA, HT, S10), or with a suit
// symbol on either side (♠A, A♠, 10♥). Letters and digits around it must not continue a word ("SAT", "L64A1").
// The symbols ♠♤ ♥♡ ♦♢ ♣♧ are written as \u escapes in the patterns: one character outside ASCII in a bundled
// chunk (scripts/bundle-daemon.mjs) makes V8 hold that chunk's whole source at two bytes a character.
const LETTER_CARD = /(?<![A-Za-z0-9])([SHDC])(10|[2-9TJQKA])(?![A-Za-z0-9])/g;
const SYMBOL_FIRST = /([\u2660\u2664\u2665\u2661\u2666\u2662\u2663\u2667])(10|[2-9TJQKA])(?![A-Za-z0-9])/g;
const SYMBOL_LAST = /(?<![A-Za-z0-9])(10|[2-9TJQKA])([\u2660\u2664\u2665\u2661\u2666\u2662\u2663\u2667])/g;
// A PBN hand ("AKQ.JT9.876.5432") names thirteen cards without a single card token.
const PBN_HAND = /[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*/g;

/** Fields that only the director may see, whatever they contain. */
export const PRIVATE_KEYS: ReadonlySet<string> = new Set(['hands', 'remaining', 'trumpSlip', 'tray', 'trayRecord', 'code', 'tag']);

function rankLetter(r: string): string {
  return r === '10' ? 'T' : r;
}

// Every card token holds a suit letter or symbol, and every PBN hand a dot: most strings of a state (seats, times,
// ids) have neither and skip the three scans. The guard runs over the whole public state on every card.
const MAY_NAME_CARD = /[SHDC\u2660\u2664\u2665\u2661\u2666\u2662\u2663\u2667]/;
const HAS_SYMBOL = /[\u2660\u2664\u2665\u2661\u2666\u2662\u2663\u2667]/;

/** The cards named in a text, in canonical notation (SA, HT), in order of appearance, repeats included. */
export function cardTokensIn(text: string): string[] {
  const out: string[] = [];
  if (!MAY_NAME_CARD.test(text)) return out;
  for (const m of text.matchAll(LETTER_CARD)) out.push(m[1] + rankLetter(m[2]));
  // The symbol scans only where there is a symbol: seats and sides ("S", "NS") have a letter but none.
  if (!HAS_SYMBOL.test(text)) return out;
  for (const m of text.matchAll(SYMBOL_FIRST)) out.push(SYMBOL_SUIT[m[1]] + rankLetter(m[2]));
  for (const m of text.matchAll(SYMBOL_LAST)) out.push(SYMBOL_SUIT[m[2]] + rankLetter(m[1]));
  return out;
}

/** True when the text holds something shaped like a PBN hand with at least one rank in it. */
export function looksLikePbnHand(text: string): boolean {
  if (!text.includes('.')) return false;
  for (const m of text.matchAll(PBN_HAND)) if (/[AKQJT2-9]/.test(m[0])) return true;
  return false;
}

// What a string names, memoised: the guard runs over the whole public state on every card (issue 20), and nearly all
// of its strings and keys (cards, seats, field names) recur from card to card. Only short strings are kept, so the
// timestamps and texts that never recur do not crowd the map out, and the map is emptied when full (bounded memory).
// The memo holds what a string names, never whether that is public: that is asked of `visible` at every call.
interface StringVerdict {
  tokens: readonly string[];
  pbn: boolean;
}
const NOTHING: StringVerdict = { tokens: [], pbn: false };
const MEMO_MAX_LENGTH = 16;
const MEMO_MAX_ENTRIES = 4096;
const verdicts = new Map<string, StringVerdict>();

function scan(text: string): StringVerdict {
  const tokens = cardTokensIn(text);
  const pbn = looksLikePbnHand(text);
  return tokens.length === 0 && !pbn ? NOTHING : { tokens, pbn };
}

function verdictOf(text: string): StringVerdict {
  if (text.length > MEMO_MAX_LENGTH) return scan(text);
  let v = verdicts.get(text);
  if (v === undefined) {
    if (verdicts.size >= MEMO_MAX_ENTRIES) verdicts.clear();
    v = scan(text);
    verdicts.set(text, v);
  }
  return v;
}

/**
 * What in `payload` would reveal a card that is not in `visible` (canonical notation): a private field, a PBN
 * hand, or a card token. Returns one description per problem, empty when the payload is fit for a public topic.
 */
export function findLeaks(payload: unknown, visible: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  // The path is spelt out only for a problem, and a link to it is made only for a container: the leaves (most of
  // the state) cost no allocation.
  const walk = (v: unknown, up: PathLink | null, key: string | number | null): void => {
    if (typeof v === 'string') {
      const found = verdictOf(v);
      for (const c of found.tokens) if (!visible.has(c)) problems.push(`${pathOf(up, key) || '/'}: names ${c}, which is not public`);
      if (found.pbn) problems.push(`${pathOf(up, key) || '/'}: holds a PBN hand`);
    } else if (typeof v === 'object' && v !== null) {
      const at = key === null ? up : { up, key };
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) walk(v[i], at, i);
        return;
      }
      // Object.keys: the own enumerable string keys, in the order for-in with hasOwnProperty gave them.
      for (const k of Object.keys(v)) {
        if (PRIVATE_KEYS.has(k)) problems.push(`${pathOf(at, k)}: a private field`);
        for (const c of verdictOf(k).tokens) if (!visible.has(c)) problems.push(`${pathOf(at, k)}: a key names ${c}`);
        walk((v as Record<string, unknown>)[k], at, k);
      }
    }
  };
  walk(payload, null, null);
  return problems;
}

interface PathLink {
  up: PathLink | null;
  key: string | number;
}

function pathOf(up: PathLink | null, key: string | number | null): string {
  let out = key === null ? '' : `/${key}`;
  for (let l = up; l; l = l.up) out = `/${l.key}${out}`;
  return out;
}
