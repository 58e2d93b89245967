// isoTime (src/formats/iso-time.ts) against the engine's own Date.prototype.toISOString, which it stands in for.
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/formats/iso-time.js';
import { createRng } from '../../src/sim/prng.js';

describe('isoTime', () => {
  it('writes the edges of days, months, leap years and centuries as toISOString does', () => {
    const edges = [
      0, -1, 1, 86_399_999, 86_400_000, Date.UTC(2000, 1, 29, 23, 59, 59, 999), Date.UTC(1900, 1, 28, 12), Date.UTC(1900, 2, 1),
      Date.UTC(2100, 1, 28), Date.UTC(2100, 2, 1), Date.UTC(2024, 1, 29), Date.UTC(2026, 11, 7, 15, 32, 10, 123),
      Date.UTC(1969, 11, 31, 23, 59, 59, 999), Date.UTC(0, 0, 1) - 0, -62_167_219_200_000, 253_402_300_799_999,
    ];
    for (const ms of edges) expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
  });

  it('agrees with toISOString on 100,000 random times from year 0 to 9999, and past them', () => {
    const rng = createRng(20);
    for (let i = 0; i < 100_000; i++) {
      const ms = Math.floor(((rng.nextU32() / 2 ** 32) * 2 - 0.5) * 253_402_300_800_000);
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
    expect(isoTime(253_402_300_800_000)).toBe('+010000-01-01T00:00:00.000Z');
  });

  it('truncates a fraction of a millisecond as Date does', () => {
    expect(isoTime(1.9)).toBe(new Date(1.9).toISOString());
    expect(isoTime(-0.5)).toBe(new Date(-0.5).toISOString());
  });
});
