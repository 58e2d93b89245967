// Imported first by `tenace run` (src/cli/run.ts) and by `tenace director` (src/club/director/heap.ts, before the
// command's modules are loaded): keep V8's young generation at its first size (1 MB semi-spaces) instead of letting it
// grow to 16 MB each. A table daemon handles a few events a second; with the default growth its start-up and JSON
// garbage grew the young generation to 32 MB of resident memory that it never gave back, on a Pi Zero 2 W with 512 MB
// for everything (issue 8); an idle 30-table director held the same 32 MB (issue 18). Scavenges of a small young
// generation are frequent but short. Flags set at run time apply to the heap from then on; this one needs no restart.
// (On Node 20 the same flag given on the command line, `node --semi-space-growth-factor=1`, left the young generation
// growing to 32 MB in a measurement; set here at run time it holds it at 2 MB.)
import { setFlagsFromString } from 'node:v8';

/** The V8 flag this module sets, for the log and tests. */
export const DAEMON_V8_FLAGS = '--semi-space-growth-factor=1';

setFlagsFromString(DAEMON_V8_FLAGS);
