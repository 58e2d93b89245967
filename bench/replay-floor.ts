// The lean floor for `npm run bench -- replay` (issue 20): read the file into a Buffer, split it into its games at
// the empty lines with indexOf, and write as many bytes of JSON per game as ours (argv[3]) from a reused Buffer.
import { readFileSync, writeSync } from 'node:fs';

function main(): void {
  const buf = readFileSync(process.argv[2]);
  const perGame = Number(process.argv[3]);
  const out = Buffer.alloc((1 << 20) + perGame + 16, 0x78);
  let n = 0;
  let games = 0;
  const put = (s: string): void => { n += out.write(s, n, 'latin1'); };
  for (let at = 0; at < buf.length;) {
    let end = buf.indexOf('\n\n', at);
    if (end < 0) end = buf.length;
    const deal = buf.indexOf('[Deal ', at);
    if (deal >= 0 && deal < end) {
      put(games++ === 0 ? '{"deals":[' : ',');
      // A game's bytes: an object with a padding string of the right length (the x's already in the Buffer).
      put('{"n":"');
      n += Math.max(0, perGame - 9);
      put('"}');
      if (n >= 1 << 20) { writeSync(1, out, 0, n); out.fill(0x78, 0, n); n = 0; }
    }
    at = end + 2;
  }
  put(']}\n');
  writeSync(1, out, 0, n);
}

main();
