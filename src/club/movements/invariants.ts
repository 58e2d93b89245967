// What every schedule must satisfy, whatever the movement (issue 7): no pair meets itself, no pair plays a tray
// twice, every tray is at one table at a time, and the participants are the ones the schedule names. Plus the
// meetings and comparisons the round-robin movements promise ("each pair has played and overplayed an equal number of
// hands against every other pair"). Pure; the property tests run it over every movement and table count.
import type { MovementTable, Schedule } from '../types.js';

/** The seed's filler ids ("the N & S positions being filled up by any of the other players"): not a participant. */
export const STAND_IN = /^(any|-|\?)$/i;

/**
 * Movements that replay every tray to the same players on purpose: in Memory Duplicate "the trays are reversed" for
 * the overplay, so each pair holds the other side's cards of a deal it has already played. A replay of the same
 * hands is a problem everywhere.
 */
export const REPLAYS_BY_DESIGN: ReadonlySet<string> = new Set(['memory-duplicate']);

/** Who holds which hands at a table: pairs and teams by side, individuals by seat. */
function holders(t: MovementTable): { id: string; hand: string }[] {
  if (t.players) return Object.entries(t.players).filter(([, id]) => id !== undefined).map(([seat, id]) => ({ id: id!, hand: seat }));
  const out: { id: string; hand: string }[] = [];
  if (t.ns !== undefined) out.push({ id: t.ns, hand: 'NS' });
  if (t.ew !== undefined) out.push({ id: t.ew, hand: 'EW' });
  return out;
}

const plays = (t: MovementTable): number[] => t.trays.filter((b): b is number => b !== null);

/** One play of a tray: where and when. */
export interface TrayPlay { round: number; slot: number; table: number; tray: number; original?: boolean; holders: { id: string; hand: string }[] }

/** Every play of every tray, in schedule order (round, slot, table). */
export function trayPlays(s: Schedule): TrayPlay[] {
  const out: TrayPlay[] = [];
  for (const r of s.rounds) {
    for (const t of r.tables) {
      t.trays.forEach((tray, slot) => {
        if (tray !== null) out.push({ round: r.round, slot, table: t.table, tray, original: t.original?.[slot], holders: holders(t) });
      });
    }
  }
  return out.sort((a, b) => a.round - b.round || a.slot - b.slot || a.table - b.table);
}

/** The problems of a schedule, as sentences; empty when it keeps every invariant. */
export function checkSchedule(s: Schedule): string[] {
  const problems: string[] = [];
  const say = (p: string): void => { if (problems.length < 50) problems.push(p); };
  const known = new Set(s.participants);
  if (known.size !== s.participants.length) say('participants: an id is listed twice');
  const seen = new Set<string>();
  s.rounds.forEach((r, i) => {
    if (r.round !== i + 1) say(`round ${r.round}: rounds must be numbered 1, 2, ... in order (expected ${i + 1})`);
    const tables = new Set<number>();
    const where = new Map<string, number>();
    const slotTrays = new Map<string, number>();
    for (const t of r.tables) {
      const at = `round ${r.round}, table ${t.table}`;
      if (!Number.isInteger(t.table) || t.table < 1 || t.table > s.tables) say(`${at}: no such table (the schedule has ${s.tables})`);
      if (tables.has(t.table)) say(`${at}: the table is listed twice`);
      tables.add(t.table);
      if (t.original && t.original.length !== t.trays.length) say(`${at}: original has ${t.original.length} flags for ${t.trays.length} trays`);
      t.trays.forEach((b, k) => {
        if (b === null) { if (t.original?.[k]) say(`${at}: a waiting slot cannot be an original deal`); return; }
        if (!Number.isInteger(b) || b < 1 || b > s.trays) say(`${at}: tray ${b} is not one of the session's ${s.trays} trays`);
        const key = `${k}:${b}`;
        if (slotTrays.has(key)) say(`${at}: tray ${b} is also at table ${slotTrays.get(key)} in slot ${k + 1}: a tray is at one table at a time`);
        slotTrays.set(key, t.table);
      });
      const hs = holders(t);
      const busy = plays(t).length > 0;
      if (busy) {
        if (s.kind === 'individuals' ? hs.length !== 4 : t.ns === undefined || t.ew === undefined) say(`${at}: trays are played but the ${s.kind === 'individuals' ? 'four players are' : 'pairs are'} not all named`);
      }
      const ids = hs.map((h) => h.id);
      for (const id of ids) {
        if (STAND_IN.test(id)) continue;
        if (!known.has(id)) say(`${at}: ${id} is not one of the participants`);
        seen.add(id);
        if (ids.filter((x) => x === id).length > 1) say(`${at}: ${id} meets itself`);
        else if (where.has(id)) say(`${at}: ${id} is also at table ${where.get(id)} this round`);
        where.set(id, t.table);
      }
    }
  });
  for (const id of s.participants) if (!seen.has(id)) say(`participants: ${id} never sits at a table`);
  const all = trayPlays(s);
  const held = new Map<string, TrayPlay[]>();
  for (const p of all) {
    for (const h of p.holders) {
      if (STAND_IN.test(h.id)) continue;
      const key = `${h.id}|${p.tray}`;
      const before = held.get(key) ?? [];
      for (const q of before) {
        const other = q.holders.find((x) => x.id === h.id)!;
        if (other.hand === h.hand) say(`${h.id} holds the same ${h.hand} hands of tray ${p.tray} twice (round ${q.round} and round ${p.round})`);
        else if (!REPLAYS_BY_DESIGN.has(s.movement)) say(`${h.id} plays tray ${p.tray} twice (round ${q.round} and round ${p.round})`);
      }
      held.set(key, [...before, p]);
    }
  }
  const byTray = new Map<number, TrayPlay[]>();
  for (const p of all) byTray.set(p.tray, [...(byTray.get(p.tray) ?? []), p]);
  for (let b = 1; b <= s.trays; b++) if (!byTray.has(b)) say(`tray ${b} is never played`);
  if (s.rounds.some((r) => r.tables.some((t) => t.original))) {
    for (const [tray, ps] of byTray) {
      const originals = ps.filter((p) => p.original);
      if (originals.length !== 1) say(`tray ${tray}: ${originals.length} original deals; a tray is dealt once`);
      else if (ps[0] !== originals[0]) say(`tray ${tray}: overplayed at table ${ps[0].table} (round ${ps[0].round}) before it is dealt at table ${originals[0].table}`);
    }
  }
  return problems;
}

/** Trays played fewer than twice: no comparison (duplicate means every deal is played at least twice). */
export function playedOnce(s: Schedule): number[] {
  const n = new Map<number, number>();
  for (const p of trayPlays(s)) n.set(p.tray, (n.get(p.tray) ?? 0) + 1);
  return [...n].filter(([, k]) => k < 2).map(([b]) => b).sort((a, b) => a - b);
}

const key = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`);

/** Opponents at the table (N-S against E-W, or by seat for individuals), per unordered pair "a|b": trays played. */
export function meetings(s: Schedule): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of s.rounds) {
    for (const t of r.tables) {
      const n = plays(t).length;
      if (n === 0) continue;
      const hs = holders(t).filter((h) => !STAND_IN.test(h.id));
      for (const a of hs) {
        for (const b of hs) {
          const opposed = a.hand.length === 2 ? a.hand !== b.hand : 'NS'.includes(a.hand) !== 'NS'.includes(b.hand);
          if (a.id < b.id && opposed) m.set(key(a.id, b.id), (m.get(key(a.id, b.id)) ?? 0) + n);
        }
      }
    }
  }
  return m;
}

/** N-S against E-W, directed: "3NS>1EW" → trays that 3NS held N-S against 1EW. */
export function directedMeetings(s: Schedule): Map<string, number[]> {
  const m = new Map<string, number[]>();
  for (const r of s.rounds) {
    for (const t of r.tables) {
      if (t.ns === undefined || t.ew === undefined) continue;
      const k = `${t.ns}>${t.ew}`;
      m.set(k, [...(m.get(k) ?? []), ...plays(t)]);
    }
  }
  return m;
}

/**
 * Comparisons: pairs that held the same hands of the same tray at different plays, per unordered pair "a|b": the
 * deals their scores are compared on (the seed's "match" between pairs at the two tables of a set).
 */
export function comparisons(s: Schedule): Map<string, number> {
  const m = new Map<string, number>();
  const byTray = new Map<number, TrayPlay[]>();
  for (const p of trayPlays(s)) byTray.set(p.tray, [...(byTray.get(p.tray) ?? []), p]);
  for (const ps of byTray.values()) {
    for (let i = 0; i < ps.length; i++) {
      for (let j = i + 1; j < ps.length; j++) {
        for (const a of ps[i].holders) {
          for (const b of ps[j].holders) {
            if (a.hand !== b.hand || a.id === b.id || STAND_IN.test(a.id) || STAND_IN.test(b.id)) continue;
            m.set(key(a.id, b.id), (m.get(key(a.id, b.id)) ?? 0) + 1);
          }
        }
      }
    }
  }
  return m;
}

/** The team of a team pair id: "3NS" → "3". */
export function teamOf(id: string): string {
  return id.replace(/(NS|EW)$/, '');
}
