// USEBIO that agrees with itself (issue 19 item 2), checked on generated sessions (a real movement, random deals and
// results with revokes reduced under Dup. X.4, averages for the deal and directors' awards, scored by the club):
// places per direction where WINNER_TYPE is 2, each pair's line points adding up to its TOTAL_SCORE, and no
// TRAVELLER_LINE without a result.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportUsebio } from '../../src/club/exports/index.js';
import type { SessionExport } from '../../src/club/types.js';
import { randomSessions as sessions } from './random-session.js';

/** The text of each `<name>` directly in a block (the export writes one element a line). */
function el(block: string, name: string): string | undefined {
  return new RegExp(`<${name}>([^<]*)</${name}>`).exec(block)?.[1];
}
const blocks = (xml: string, name: string): string[] => [...xml.matchAll(new RegExp(`<${name}>[^]*?</${name}>`, 'g'))].map((m) => m[0]);


/** The pairs of the file: key "number direction" (direction only with two winners), place and total. */
function participants(xml: string): Map<string, { place: string; total: number; dir?: string }> {
  const out = new Map<string, { place: string; total: number; dir?: string }>();
  for (const p of blocks(xml, 'PAIR')) {
    const dir = el(p, 'DIRECTION');
    out.set(`${el(p, 'PAIR_NUMBER')} ${dir ?? ''}`, { place: el(p, 'PLACE')!, total: Number(el(p, 'TOTAL_SCORE')), dir });
  }
  return out;
}

describe('USEBIO 1.2 agrees with itself on generated sessions (property)', () => {
  it('WINNER_TYPE 2: PLACE runs from 1 within each direction, never past the direction\'s number of pairs', () => {
    fc.assert(fc.property(sessions, (s: SessionExport) => {
      const xml = exportUsebio(s);
      if (el(xml, 'WINNER_TYPE') !== '2') return;
      for (const dir of ['NS', 'EW']) {
        const places = [...participants(xml).values()].filter((p) => p.dir === dir).map((p) => Number(p.place.replace('=', '')));
        expect(Math.min(...places), dir).toBe(1);
        expect(Math.max(...places), dir).toBeLessThanOrEqual(places.length);
      }
    }), { numRuns: 60 });
  });

  it('each pair\'s points on its TRAVELLER_LINEs add up to its TOTAL_SCORE (adjusted and X.4-reduced lines included)', () => {
    fc.assert(fc.property(sessions, (s: SessionExport) => {
      const xml = exportUsebio(s);
      const two = el(xml, 'WINNER_TYPE') === '2';
      const imps = /IMPS/.test(el(xml, 'BOARD_SCORING_METHOD')!);
      const sums = new Map<string, number>();
      for (const line of blocks(xml, 'TRAVELLER_LINE')) {
        for (const [d, side] of [['NS', 'NS'], ['EW', 'EW']] as const) {
          const key = `${el(line, `${d}_PAIR_NUMBER`)} ${two ? side : ''}`;
          const points = Number(el(line, imps ? `${d}_IMPS` : `${d}_MATCH_POINTS`));
          sums.set(key, (sums.get(key) ?? 0) + points);
        }
      }
      for (const [key, p] of participants(xml)) expect(sums.get(key) ?? 0, key).toBeCloseTo(p.total, 1);
    }), { numRuns: 60 });
  });

  it('no TRAVELLER_LINE is empty: every line has the points of both sides, and an award its SCORE ("A" and the N-S percentage)', () => {
    fc.assert(fc.property(sessions, (s: SessionExport) => {
      const xml = exportUsebio(s);
      const imps = /IMPS/.test(el(xml, 'BOARD_SCORING_METHOD')!);
      for (const line of blocks(xml, 'TRAVELLER_LINE')) {
        for (const d of ['NS', 'EW']) expect(el(line, imps ? `${d}_IMPS` : `${d}_MATCH_POINTS`), line).toMatch(/^-?\d+(\.\d+)?$/);
        if (s.variant === 'bridge' && /<!-- adjusted: /.test(line)) expect(el(line, 'SCORE'), line).toMatch(/^A\d+$/);
      }
    }), { numRuns: 60 });
  });
});
