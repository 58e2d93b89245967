// One collator for every "1NS before 10NS" comparison: String.prototype.localeCompare with options builds a collator
// on each call (19-71 ms to sort 1,200 travellers, against 0.2-1 ms with this one; issue 18).
const COLLATOR = new Intl.Collator('en', { numeric: true });

/** Compare two ids as a player reads them: digits by their value ("2" before "10"), the rest alphabetically. */
export const compareIds: (a: string, b: string) => number = COLLATOR.compare;
