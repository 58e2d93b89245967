// Imported by `tenace director` (src/cli/main.ts) before the director's modules are loaded. It keeps the young
// generation at 2 MB as the table daemon does (../../daemon/heap.ts), and lets the old generation grow to 1.5 times
// what was live after a full collection instead of V8's up to 4 times. With the small young generation more of the
// director's short-lived objects (messages, rows, standings) are promoted, and in a 24-round 30-table session the old
// generation grew from 25 MB to 80 MB of mostly garbage before V8 collected it: a peak of 164 MB against 114 MB with
// this flag (issue 18; bench/README.md, club). Its cost is more frequent full collections of a heap of about 30 MB.
// Flags set at run time apply from then on: V8 reads this one at every full collection.
import '../../daemon/heap.js';
import { setFlagsFromString } from 'node:v8';

/** The V8 flag this module sets in addition to the daemon's, for the log and tests. */
export const DIRECTOR_V8_FLAGS = '--heap-growing-percent=50';

setFlagsFromString(DIRECTOR_V8_FLAGS);
