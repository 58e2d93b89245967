// One collator for every "1NS before 10NS" comparison: String.prototype.localeCompare with options builds a collator
// on each call (19-71 ms to sort 1,200 travellers, against 0.2-1 ms with this one; issue 18). Made on the first
// comparison, not when the module loads: building it pages in 2 MB of ICU's collation data, and the table daemon
// loads this module (tray records, board vulnerability) without ever sorting ids (issue 20).
let collator: Intl.Collator | undefined;

/** Compare two ids as a player reads them: digits by their value ("2" before "10"), the rest alphabetically. */
export function compareIds(a: string, b: string): number {
  return (collator ??= new Intl.Collator('en', { numeric: true })).compare(a, b);
}
