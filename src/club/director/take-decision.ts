// The director's decisions taken: checked against the session, journaled once per transaction, and applied.
import type { RoundAssignment, TrayRecord } from '../types.js';
import { type Decision, type DecisionResponse, checkDecision, decisionDigest, transactionKey } from './decisions.js';
import { handScoredSeqs, handScoredTraveller, tableResultRefusal } from './hand-scored.js';
import type { StoredDecision } from './store.js';
import { type DirectorState, Work, followed, resultKey } from './state.js';
import { enqueue, commit } from './commit.js';
import { pub } from './mqtt.js';
import { raise } from './alerts.js';
import { putResult, hasResult, updateReleased } from './results.js';
import { maybeAdvance, advanceIdle, nextRound, assign } from './rounds.js';
import { scheduleFlush } from './standings.js';

/**
 * A decision from the director's own pages or a hand-scored table's terminal: the same checks, journal and
 * exactly-once answer as one from MQTT, taken in the same serialised chain as every message.
 */
export function decide(st: DirectorState, cmd: string, payload: string): Promise<DecisionResponse> {
  let out: DecisionResponse = { transaction: null, ok: false, error: 'director: stopped' };
  return enqueue(st, async () => { out = await takeDecision(st, cmd, Buffer.from(payload)); }).then(() => out);
}

/** The pairs' names changed: each table's assignment in force is given again, with the names. */
export async function renamePairs(st: DirectorState): Promise<void> {
  await enqueue(st, async () => {
    const work = new Work();
    for (const ts of followed(st)) if (st.assignments.has(ts.id)) assign(st, ts, st.assignments.get(ts.id)!.round, work);
    st.standingsDirty = true;
    await commit(st, async (tx) => { for (const w of work.writes) await w(tx); });
    for (const p of work.publishes) p();
    scheduleFlush(st);
  });
}

/** Check, journal and apply one decision, exactly once per transaction id; its answer. */
export async function takeDecision(st: DirectorState, cmd: string, payload: Buffer): Promise<DecisionResponse> {
  const chk = checkDecision(cmd, payload);
  if (!chk.ok) return { transaction: chk.transaction, ok: false, error: chk.error };
  const d = chk.decision;
  const key = transactionKey(d.transaction);
  const digest = decisionDigest(d);
  const prior = st.decisions.get(key);
  if (prior) {
    // A retry gets the first answer; the decision is not applied again.
    return prior.digest === digest ? prior.response as DecisionResponse
      : { transaction: d.transaction, ok: false, error: `transaction: "${d.transaction}" was used for another decision (${prior.cmd}); give each decision its own transaction id` };
  }
  const problem = refusal(st, d);
  if (problem) return { transaction: d.transaction, ok: false, error: problem };
  const work = new Work();
  const detail = applyDecision(st, d, work);
  const response = { transaction: d.transaction, ok: true, ...detail };
  const stored: StoredDecision = { transaction: key, cmd: d.name, digest, request: d.params, response, at: st.now().toISOString() };
  await commit(st, async (tx) => {
    await tx.putDecision(st.c.session, stored);
    for (const w of work.writes) await w(tx);
  });
  st.decisions.set(key, stored);
  for (const p of work.publishes) p();
  st.log.info({ decision: d.name, transaction: d.transaction, params: d.params }, 'director: decision taken');
  scheduleFlush(st);
  return response;
}

/** Why a well-formed decision cannot apply, naming the field and the fix; null when it can. */
export function refusal(st: DirectorState, d: Decision): string | null {
  const p = d.params as { board?: number; table?: string; groups?: string[][] };
  if (p.table !== undefined && !st.tables.has(p.table)) return `table: "${p.table}" is not a table of this session; use one of ${[...st.tables.keys()].join(', ')}`;
  if (p.board !== undefined && d.name !== 'correct-tray' && !st.index.boards().includes(p.board)) {
    return `board: ${p.board} is not a tray of this session; use one of ${st.index.boards().join(', ')}`;
  }
  if ((d.name === 'adjust-score' || d.name === 'late-play' || d.name === 'result-stands') && !st.index.get(st.tables.get(p.table!)!.no, p.board!)) {
    return `board: table ${p.table} does not play tray ${p.board} in this schedule; its trays are ${st.index.boards().filter((b) => st.index.get(st.tables.get(p.table!)!.no, b)).join(', ')}`;
  }
  if (d.name === 'fouled-board') {
    const all = p.groups!.flat();
    const bad = all.find((t) => !st.tables.has(t));
    if (bad) return `groups: "${bad}" is not a table of this session`;
    if (new Set(all).size !== all.length) return 'groups: a table is in two groups; put each table in one group';
  }
  if (d.name === 'correct-tray' && !st.records.has(p.board!) && !(d.params as { dealer?: string }).dealer) {
    return `dealer: tray ${p.board} has no record yet, so give the dealer (N, E, S or W) with the hands`;
  }
  if (d.name === 'table-result') {
    // The round the result is of: the one named, else the table's round now (a result is entered as it is played).
    const round = d.params.round ?? st.assignments.get(d.params.table)?.round;
    const play = st.index.get(st.tables.get(d.params.table)!.no, d.params.board, round);
    const problem = tableResultRefusal({ ...d.params, round }, { variant: st.c.variant, handScored: st.handScored.has(d.params.table), plays: play?.round === round ? play : undefined });
    if (problem) return problem;
  }
  if (d.name === 'advance-round') {
    const ids = p.table !== undefined ? [p.table] : [...st.tables.keys()];
    if (ids.every((id) => nextRound(st, st.assignments.get(id)?.round ?? 0) === undefined)) return 'table: already in the last round; there is no round to advance to';
  }
  return null;
}

/** What a decision changes in memory (also run for each journaled decision at a restart). */
export function applyDecisionState(st: DirectorState, d: Decision): void {
  if (d.name === 'adjust-score') st.adjustments.set(`${d.params.board}:${d.params.table}`, d.params.adjusted);
  else if (d.name === 'fouled-board') st.fouledBoards.set(d.params.board, d.params.groups);
  else if (d.name === 'late-play') st.latePlays.add(`${d.params.board}:${d.params.table}`);
  st.standingsDirty = true;
}

/** Apply a decision: its state, and the records, assignments and alerts it makes (written in its transaction). */
export function applyDecision(st: DirectorState, d: Decision, work: Work): Record<string, unknown> {
  applyDecisionState(st, d);
  const at = st.now().toISOString();
  switch (d.name) {
    case 'adjust-score':
    case 'fouled-board':
    case 'result-stands':
      return {};
    case 'table-result': {
      const ts = st.tables.get(d.params.table)!;
      const traveller = handScoredTraveller(d.params, { tableNo: ts.no, index: st.index, assignment: st.assignments.get(ts.id), round: d.params.round, variant: st.c.variant });
      putResult(st, ts, { table: ts.id, traveller, ...handScoredSeqs(st.results.get(resultKey({ table: ts.id, traveller }))) }, work);
      updateReleased(st, work);
      maybeAdvance(st, ts, work);
      return { traveller };
    }
    case 'late-play': {
      const ts = st.tables.get(d.params.table)!;
      const a = assign(st, ts, st.assignments.get(ts.id)?.round ?? st.schedule.rounds[0].round, work);
      raise(st, `late-play:${ts.id}:${d.params.board}:${at}`, {
        schema: 1, type: 'tenace.alert', kind: 'late-play', session: st.c.session, table: ts.id, board: d.params.board, round: a.round,
        message: `Tray ${d.params.board} is to be played late at table ${ts.id}${d.params.reason ? `: ${d.params.reason}` : ''}.`, at,
      }, work);
      return { assignment: a };
    }
    case 'correct-tray': {
      const prev = st.records.get(d.params.board);
      const rec: TrayRecord = {
        schema: 1, type: 'tenace.tray', session: st.c.session, board: d.params.board, hands: d.params.hands,
        dealer: d.params.dealer ?? prev!.dealer,
        ...(d.params.trumpCard ?? prev?.trumpCard ? { trumpCard: d.params.trumpCard ?? prev?.trumpCard } : {}),
        ...(prev?.trump ? { trump: prev.trump } : {}), ...(prev?.vulnerable ? { vulnerable: prev.vulnerable } : {}),
        variant: prev?.variant ?? st.c.variant,
        source: { kind: 'correction', by: 'director', reason: d.params.reason, at }, rev: (prev?.rev ?? 0) + 1,
      };
      st.records.set(rec.board, rec);
      work.write((tx) => tx.putTray(st.c.session, rec));
      work.publish(() => pub(st, st.topics.tray(rec.board), rec, true));
      return { record: rec };
    }
    case 'advance-round': {
      const ids = d.params.table !== undefined ? [d.params.table] : [...st.tables.keys()];
      const moved: RoundAssignment[] = [];
      for (const id of ids) {
        const ts = st.tables.get(id)!;
        const a = st.assignments.get(id);
        const next = nextRound(st, a?.round ?? 0);
        if (next === undefined) continue;
        for (const b of a?.trays ?? []) {
          if (hasResult(st, b, id, a!.round)) continue;
          raise(st, `missing-result:${id}:${b}:${a!.round}`, {
            schema: 1, type: 'tenace.alert', kind: 'missing-result', session: st.c.session, table: id, board: b, round: a!.round,
            message: `Table ${id} moved on from round ${a!.round} without a result on tray ${b}: adjust the score or allow a late play.`, at,
          }, work);
        }
        moved.push(assign(st, ts, next, work));
      }
      advanceIdle(st, work);
      return { assignments: moved };
    }
  }
}
