// The peer's whole process for `npm run bench -- replay`: read a PBN file, take each game's Deal, Contract,
// Declarer and Play with regular expressions, order the play columns with the peer's own card comparison, and judge
// the play with @bridge-tools/core's Board.isPlayValid. Prints "valid/games" on stdout.
import { readFileSync } from 'node:fs';
import { Board, Card, StringParser, type Types } from '@bridge-tools/core';

const SEATS = ['N', 'E', 'S', 'W'] as const;
const TAG = /^\[(\w+) "([^"]*)"\]/gm;

function main(): void {
  const text = readFileSync(process.argv[2], 'utf8');
  let valid = 0;
  let games = 0;
  for (const game of text.split(/\r?\n[ \t]*\r?\n/)) {
    if (!game.includes('[Play ')) continue;
    const tags: Record<string, string> = {};
    let playAt = -1;
    for (const m of game.matchAll(TAG)) {
      tags[m[1]] = m[2];
      if (m[1] === 'Play') playAt = (m.index ?? 0) + m[0].length;
    }
    const c = /^([1-7])(NT?|[SHDC])(X{0,2})$/.exec(tags.Contract ?? '');
    if (!c || !tags.Deal || playAt < 0) continue;
    games++;
    const first = SEATS.indexOf(tags.Deal[0] as typeof SEATS[number]);
    const deal = {} as Types.Deal;
    tags.Deal.slice(2).split(/\s+/).forEach((h, k) => { deal[SEATS[(first + k) & 3]] = StringParser.parseHand(h); });
    const strain = c[2] === 'N' ? 'NT' : c[2];
    const trump = (strain === 'NT' ? undefined : strain) as Types.SuitOrNT | undefined;
    // Play rows: a column per seat from the Play tag's seat; each trick is led by the winner of the one before.
    const rows = game.slice(playAt).split(/\r?\n/).map((l) => l.trim().split(/\s+/)).filter((r) => r.length === 4 && r.every((x) => /^[SHDC][2-9TJQKA]$/i.test(x)));
    const col0 = SEATS.indexOf(tags.Play as typeof SEATS[number]);
    let leader = SEATS.indexOf(({ N: 'E', E: 'S', S: 'W', W: 'N' } as Record<string, typeof SEATS[number]>)[tags.Declarer] ?? 'N');
    const play: Types.Trick[] = [];
    for (const r of rows) {
      const trick: Types.Card[] = [];
      for (let k = 0; k < 4; k++) trick.push(StringParser.parseCard(r[(((leader + k) & 3) - col0 + 4) & 3].toUpperCase()));
      let w = 0;
      for (let k = 1; k < 4; k++) {
        const a = trick[k], b = trick[w];
        if ((a.suit === b.suit && Card.compare(a, b) > 0) || (trump && a.suit === trump && b.suit !== trump)) w = k;
      }
      play.push(trick);
      leader = (leader + w) & 3;
    }
    const pc: Types.PlayableContract = { level: Number(c[1]), strain: strain as Types.SuitOrNT, declarer: tags.Declarer as Types.Compass };
    if (c[3] === 'X') pc.doubled = true;
    if (c[3] === 'XX') pc.redoubled = true;
    try { if (Board.isPlayValid(deal, play, pc)) valid++; } catch { /* the peer throws on some inputs: not valid */ }
  }
  process.stdout.write(`${valid}/${games}\n`);
}

main();
