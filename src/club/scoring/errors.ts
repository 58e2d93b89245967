// A travellers problem that scoring finds: it names the traveller (by its place in the input), the field and the fix,
// so `tenace score` can point at the line of the file and the director at the result.

/** Bad input to scoring: `index` is the traveller's place in the array given to scoring, when one is to blame. */
export class ScoringError extends Error {
  readonly index?: number;
  readonly field?: string;
  constructor(message: string, index?: number, field?: string) {
    super(message);
    this.name = 'ScoringError';
    if (index !== undefined) this.index = index;
    if (field !== undefined) this.field = field;
  }
}
