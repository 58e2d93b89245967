// The physical floor for `npm run bench -- replay`: read the file, split it into its games at the empty lines, and
// write JSON of the given size per game (what `tenace replay --json` writes per deal), streamed like ours.
import { readFileSync, writeSync } from 'node:fs';

function main(): void {
  const text = readFileSync(process.argv[2], 'utf8');
  const perGame = Number(process.argv[3]);
  const pad = 'x'.repeat(Math.max(0, perGame - 20));
  let buf = '';
  let n = 0;
  for (const game of text.split(/\r?\n[ \t]*\r?\n/)) {
    if (!game.includes('[Deal ')) continue;
    buf += (n++ === 0 ? '{"deals":[' : ',') + JSON.stringify({ n, pad });
    if (buf.length >= 1 << 20) { writeSync(1, buf); buf = ''; }
  }
  writeSync(1, `${buf}]}\n`);
}

main();
