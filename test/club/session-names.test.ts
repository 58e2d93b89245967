// The players' names a simulated session gives its pairs on the console: repeatable from the seed, two a pair (four a
// team, one an individual), each player once, each with a member number of his own.
import { describe, expect, it } from 'vitest';
import { movementByName } from '../../src/club/movements/index.js';
import { plannedNames } from '../../src/club/session/names.js';
import { planSession } from '../../src/club/session/plan.js';

const plan = (movement: string, tables: number, seed: number) =>
  planSession({ session: 's', variant: 'duplicate-whist', schedule: movementByName(movement)!.generate({ tables, boardsPerRound: 1 }), seed });

describe('plannedNames', () => {
  it('gives every pair of a 15-table Mitchell two players, no name or member number twice, the same for the same seed', () => {
    const p = plan('mitchell', 15, 3);
    const names = plannedNames(p);
    expect(Object.keys(names)).toEqual(p.schedule.participants);
    const players = Object.values(names).flat();
    expect(players).toHaveLength(60);
    expect(new Set(players.map((x) => x.name)).size).toBe(60);
    expect(new Set(players.map((x) => x.member)).size).toBe(60);
    expect(plannedNames(plan('mitchell', 15, 3))).toEqual(names);
    expect(plannedNames(plan('mitchell', 15, 4))).not.toEqual(names);
  });

  it('one name for each player of an individual movement', () => {
    const p = plan('mitchell-individuals', 3, 1);
    expect(p.schedule.kind).toBe('individuals');
    expect(Object.values(plannedNames(p)).every((list) => list.length === 1)).toBe(true);
  });
});
