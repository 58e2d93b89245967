// Standings: the travellers as scored (adjustments, averages and fouled-board groups by law), and their publish.
import { compareIds } from '../scoring/collate.js';
import type { SessionExport, Traveller } from '../types.js';
import { exportNames, withNames } from './players.js';
import { type DirectorState, type DirectorTraveller, STANDINGS_COST_FACTOR, isLeader, warnOnce } from './state.js';
import { pubLatest } from './mqtt.js';
import { trayRecords } from './records.js';
import { flushSnapshot } from './snapshot.js';

/**
 * Two travellers' tables in a player's order: by number where both are numbers (the director's own travellers),
 * which is the collator's order for them without its cost (issue 18: the sort took 0.6 ms of each scoring at 720
 * results); ids otherwise.
 */
function compareTables(a: Traveller['table'], b: Traveller['table']): number {
  return typeof a === 'number' && typeof b === 'number' ? a - b : compareIds(String(a), String(b));
}

/** The travellers as scored: the results, the director's adjustments applied, fouled-board groups marked. */
export function scoredTravellers(st: DirectorState): DirectorTraveller[] {
  const out: DirectorTraveller[] = [];
  const seen = new Set<string>();
  const byLaw = averagesByLaw(st);
  const groups = groupsByLaw(st);
  const committed = [...st.results].flatMap(([key, r]) => {
    const u = st.uncommitted.get(key);
    return u ? (u.before ? [u.before] : []) : [r];
  });
  for (const r of committed.sort((a, b) => a.traveller.board - b.traveller.board || compareTables(a.traveller.table, b.traveller.table) || (a.traveller.round ?? 0) - (b.traveller.round ?? 0))) {
    const board = r.traveller.board;
    // An adjustment names a tray and a table: where the table played the tray in two rounds it applies to both.
    const key = `${board}:${r.table}`;
    const adj = st.adjustments.get(key) ?? (st.fouledBoards.has(board) ? undefined : byLaw.get(key));
    const g = groupOf(st, board, r.table) ?? (st.fouledBoards.has(board) ? undefined : groups.get(board)?.(r.table));
    // The same object as last time for the same result, adjustment and group: the score cache's boards stay valid.
    const last = st.lastTravellers.get(r);
    if (last && last.adjusted === adj && last.version === g) out.push(last.t);
    else {
      const t: DirectorTraveller = { ...r.traveller };
      if (adj !== undefined) t.adjusted = adj;
      if (g !== undefined) t.version = g;
      st.lastTravellers.set(r, { adjusted: adj, version: g, t });
      out.push(t);
    }
    seen.add(key);
  }
  for (const [key, adjusted] of st.adjustments) {
    if (seen.has(key)) continue;
    const [b, table] = [Number(key.slice(0, key.indexOf(':'))), key.slice(key.indexOf(':') + 1)];
    const ts = st.tables.get(table)!;
    const where = st.index.get(ts.no, b);
    out.push({ board: b, ns: where?.ns ?? `${ts.no}NS`, ew: where?.ew ?? `${ts.no}EW`, table: ts.no, ...(where ? { round: where.round } : {}), adjusted });
  }
  return out;
}

/** The session as the exports read it (PBN with results, USEBIO, CSV travellers). */
export function sessionExport(st: DirectorState): SessionExport {
  const travellers = scoredTravellers(st);
  const report = st.standings ?? st.fns.scoreTravellers(travellers, st.c.scoring.method ? { method: st.c.scoring.method } : {});
  return {
    club: st.c.club.id, session: st.c.session, date: st.now().toISOString().slice(0, 10), variant: st.c.variant,
    schedule: st.schedule, records: trayRecords(st), travellers, report, ...exportNames(st.players?.pairs() ?? {}),
  };
}

/**
 * The averages the laws give without a decision: a tray found fouled on the overplay with more than two tables in
 * play (Dup. IV.9, IV.10, V.1: "the table at which the error was discovered ... shall take the average score"),
 * keyed `board:table`. The director's adjusted score or fouled-board decision on that tray takes its place.
 */
export function averagesByLaw(st: DirectorState): Map<string, 'average'> {
  const out = new Map<string, 'average'>();
  for (const a of st.alerts) {
    if (a.kind !== 'fouled-tray' || a.outcome?.remedy !== 'rectify-and-average' || a.board === undefined || a.table === undefined) continue;
    // The average of no result is no score: until another table has played the tray (a dealing machine's record
    // can make the fouled play the first), the result stands as played and the alert asks for the director.
    if ((st.playedAt.get(a.board) ?? []).some((t) => t !== String(a.table))) out.set(`${a.board}:${a.table}`, 'average');
  }
  return out;
}

/**
 * Bridge's fouled boards without a decision (Law 87B): per board, each table's group, 1 for the form of the record
 * and one more for each other form found (tables whose hands differed alike played the same form).
 */
export function groupsByLaw(st: DirectorState): Map<number, (table: string) => number> {
  const forms = new Map<number, Map<string, string>>();
  for (const a of st.alerts) {
    if (a.kind !== 'fouled-tray' || a.outcome?.remedy !== 'score-in-groups' || a.board === undefined || a.table === undefined) continue;
    const form = (a.differences ?? []).map((d) => `${d.card}:${d.table}`).sort().join(' ');
    const m = forms.get(a.board) ?? new Map<string, string>();
    m.set(String(a.table), form);
    forms.set(a.board, m);
  }
  const out = new Map<number, (table: string) => number>();
  for (const [board, byTable] of forms) {
    const order = [...new Set(byTable.values())].sort();
    out.set(board, (table) => {
      const f = byTable.get(table);
      return f === undefined ? 1 : order.indexOf(f) + 2;
    });
  }
  return out;
}

/** A table's Law 87B group on a fouled board from the director's fouled-board decision (1-based). */
export function groupOf(st: DirectorState, board: number, table: string): number | undefined {
  const groups = st.fouledBoards.get(board);
  if (!groups) return undefined;
  const i = groups.findIndex((g) => g.includes(table));
  return i < 0 ? undefined : i + 1;
}

/**
 * Flush the standings (and ask for the snapshot, paced on its own) on the next turn of the event loop after a change,
 * once however many changes come meanwhile; later when the last two scorings were costly (standingsDue). The next
 * turn is setImmediate's, right after the I/O just read: a timer of even 1 ms let the next burst of table events be
 * folded first at a round's end (issue 18).
 */
export function scheduleFlush(st: DirectorState): void {
  if (st.flushCancel || st.stopped) return;
  const run = () => {
    st.flushCancel = null;
    flushNow(st);
  };
  const wait = st.standingsDue - performance.now();
  if (wait > 0) {
    const t = setTimeout(run, wait);
    st.flushCancel = () => clearTimeout(t);
  } else {
    const i = setImmediate(run);
    st.flushCancel = () => clearImmediate(i);
  }
}

/** Score and publish the standings when changed (the leader only), and mark the snapshot due. */
export function flushNow(st: DirectorState): void {
  // After a failed commit the memory runs ahead of the store: publish nothing that the store may not hold.
  if (st.failed) return;
  if (st.standingsDirty && isLeader(st)) {
    st.standingsDirty = false;
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const travellers = scoredTravellers(st);
    if (travellers.length > 0) {
      try {
        st.standings = withNames(st.fns.scoreTravellers(travellers, { ...(st.c.scoring.method ? { method: st.c.scoring.method } : {}), cache: st.scoreCache }), st.players?.pairs() ?? {});
        pubLatest(st, st.topics.standings, JSON.stringify(st.standings));
      } catch (err) {
        // Logged once per reason: the next change of the travellers tries again.
        warnOnce(st, `scoreTravellers:${(err as Error).message}`, { err: (err as Error).message }, 'director: cannot score the travellers');
      }
    }
    const t1 = performance.now();
    // Its cost is the CPU it took, where less than the time it took: on a busy machine the scoring is preempted, and
    // the time others ran is no reason to hold the next standings back.
    const cpu = process.cpuUsage(c0);
    const took = Math.min(t1 - t0, (cpu.user + cpu.system) / 1000);
    // The lesser of the last two costs: one costly scoring (the first, before V8 has compiled the scorer; a
    // collection) does not hold the next standings back; a session that costs as much every time is paced.
    const cost = Math.min(took, st.standingsCost);
    st.standingsCost = took;
    st.standingsDue = t1 + STANDINGS_COST_FACTOR * cost;
  }
  st.snapDirty = true;
  st.snapUnsent = true;
  flushSnapshot(st);
}
