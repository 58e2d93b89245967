// The last line of the privacy rule (DESIGN §6): before anything goes out on a public topic, scan it for cards that
// are not public yet. The projection is built not to leak; this guard makes a bug in it cost a degraded message
// instead of a hidden card on a spectator's phone. Pure, so tests and the browser can use it.

const SYMBOL_SUIT: Record<string, string> = { '♠': 'S', '♤': 'S', '♥': 'H', '♡': 'H', '♦': 'D', '♢': 'D', '♣': 'C', '♧': 'C' };

// A card written as the engine and the table log write it: suit letter then rank (SA, HT, S10), or with a suit
// symbol on either side (♠A, A♠, 10♥). Letters and digits around it must not continue a word ("SAT", "L64A1").
const LETTER_CARD = /(?<![A-Za-z0-9])([SHDC])(10|[2-9TJQKA])(?![A-Za-z0-9])/g;
const SYMBOL_FIRST = /([♠♤♥♡♦♢♣♧])(10|[2-9TJQKA])(?![A-Za-z0-9])/g;
const SYMBOL_LAST = /(?<![A-Za-z0-9])(10|[2-9TJQKA])([♠♤♥♡♦♢♣♧])/g;
// A PBN hand ("AKQ.JT9.876.5432") names thirteen cards without a single card token.
const PBN_HAND = /[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*/g;

/** Fields that only the director may see, whatever they contain. */
export const PRIVATE_KEYS: ReadonlySet<string> = new Set(['hands', 'remaining', 'trumpSlip', 'tray', 'trayRecord', 'code', 'tag']);

function rankLetter(r: string): string {
  return r === '10' ? 'T' : r;
}

// Every card token holds a suit letter or symbol, and every PBN hand a dot: most strings of a state (seats, times,
// ids) have neither and skip the three scans. The guard runs over the whole public state on every card.
const MAY_NAME_CARD = /[SHDC♠♤♥♡♦♢♣♧]/;
const HAS_SYMBOL = /[♠♤♥♡♦♢♣♧]/;

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

/**
 * What in `payload` would reveal a card that is not in `visible` (canonical notation): a private field, a PBN
 * hand, or a card token. Returns one description per problem, empty when the payload is fit for a public topic.
 */
export function findLeaks(payload: unknown, visible: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  // The path is spelt out only for a problem: it runs over the whole public state on every card (issue 20).
  const walk = (v: unknown, at: PathLink | null): void => {
    if (typeof v === 'string') {
      for (const c of cardTokensIn(v)) if (!visible.has(c)) problems.push(`${pathOf(at) || '/'}: names ${c}, which is not public`);
      if (looksLikePbnHand(v)) problems.push(`${pathOf(at) || '/'}: holds a PBN hand`);
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) walk(v[i], { up: at, key: i });
    } else if (typeof v === 'object' && v !== null) {
      for (const k in v) {
        if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
        const link = { up: at, key: k };
        if (PRIVATE_KEYS.has(k)) problems.push(`${pathOf(link)}: a private field`);
        for (const c of cardTokensIn(k)) if (!visible.has(c)) problems.push(`${pathOf(link)}: a key names ${c}`);
        walk((v as Record<string, unknown>)[k], link);
      }
    }
  };
  walk(payload, null);
  return problems;
}

interface PathLink {
  up: PathLink | null;
  key: string | number;
}

function pathOf(at: PathLink | null): string {
  let out = '';
  for (let l = at; l; l = l.up) out = `/${l.key}${out}`;
  return out;
}
