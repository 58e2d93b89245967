// Rounds: each table's assignment, given when its round's trays are done (or by the director).
import { tableTopics } from '../../feed/topics.js';
import type { RoundAssignment } from '../types.js';
import { seatNames } from './players.js';
import { type DirectorState, type TableState, Work, followed, pinOf } from './state.js';
import { pub } from './mqtt.js';
import { hasResult } from './results.js';

/** Give each followed table without one its first round's assignment. */
export function initialAssignments(st: DirectorState, work: Work): void {
  for (const ts of followed(st)) {
    if (st.assignments.has(ts.id)) continue;
    assign(st, ts, st.schedule.rounds[0]?.round ?? 1, work);
  }
}

/** Advance a table once it has completed every tray of its round (a tray moved to late play excepted). */
export function maybeAdvance(st: DirectorState, ts: TableState, work: Work): void {
  const a = st.assignments.get(ts.id);
  if (!a) return;
  const required = a.trays.filter((b) => !st.latePlays.has(`${b}:${ts.id}`) || hasResult(st, b, ts.id, a.round));
  if (required.length === 0 || !required.every((b) => hasResult(st, b, ts.id, a.round))) return;
  if (nextRound(st, a.round) === undefined) return;
  assign(st, ts, nextRound(st, a.round)!, work);
  advanceIdle(st, work);
}

/** A table with nothing to play in its round (a sit-out) moves on once no other table is still in that round. */
export function advanceIdle(st: DirectorState, work: Work): void {
  let moved = true;
  while (moved) {
    moved = false;
    for (const ts of st.tables.values()) {
      const a = st.assignments.get(ts.id);
      if (!a || a.trays.length > 0) continue;
      const next = nextRound(st, a.round);
      if (next === undefined) continue;
      const others = [...st.assignments.values()].filter((x) => x.table !== ts.id && x.trays.length > 0);
      if (others.length > 0 && others.every((x) => x.round > a.round)) {
        assign(st, ts, next, work);
        moved = true;
      }
    }
  }
}

/** The schedule's round after `round`, if any. */
export function nextRound(st: DirectorState, round: number): number | undefined {
  const rounds = st.schedule.rounds.map((r) => r.round).sort((x, y) => x - y);
  return rounds.find((r) => r > round);
}

/** Give a table its assignment for a round: stored, then published retained on `<table>/assignment`. */
export function assign(st: DirectorState, ts: TableState, round: number, work: Work): RoundAssignment {
  const entry = st.schedule.rounds.find((r) => r.round === round)?.tables.find((t) => t.table === ts.no);
  const late = [...st.latePlays].filter((k) => k.endsWith(`:${ts.id}`)).map((k) => Number(k.slice(0, k.indexOf(':'))))
    .filter((b) => !hasResult(st, b, ts.id));
  const trays = [...(entry?.trays.filter((b): b is number => b !== null) ?? [])];
  for (const b of late) if (!trays.includes(b)) trays.push(b);
  const a: RoundAssignment = {
    schema: 1, type: 'tenace.assignment', session: st.c.session, movement: st.schedule.movement, round, table: ts.id,
    ...(entry?.ns !== undefined ? { ns: entry.ns } : {}), ...(entry?.ew !== undefined ? { ew: entry.ew } : {}),
    ...(entry?.players ? { players: entry.players } : {}), ...(entry?.turn ? { turn: entry.turn } : {}),
    ...(st.c.trump ? { trump: st.c.trump } : {}), ...seatNames(st.players?.pairs() ?? {}, entry?.ns, entry?.ew, entry?.turn),
    trays, tables: st.schedule.tables, variant: st.c.variant, pin: pinOf(st, ts.id), at: st.now().toISOString(),
  };
  st.assignments.set(ts.id, a);
  work.write((tx) => tx.putAssignment(st.c.session, a));
  work.publish(() => pub(st, tableTopics(st.c.club.id, ts.id, st.c.mqtt.baseTopic).assignment, a, true));
  return a;
}
