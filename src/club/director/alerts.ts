// The director's alerts: raised once each and stored with the message that made them, and the intake's refusals.
import type { TableEvent } from '../../formats/table-log.js';
import type { ClubAlert } from '../types.js';
import { type Refusal, unknownBoardAlert } from './intake.js';
import { type DirectorState, type TableState, Work } from './state.js';
import { commitWork } from './commit.js';
import { pub } from './mqtt.js';

/** Raise an alert once: kept in memory, written with the message's work, published once committed. */
export function raise(st: DirectorState, id: string, alert: ClubAlert, work: Work): void {
  if (st.alertIds.has(id)) return;
  st.alertIds.add(id);
  st.alerts.push(alert);
  work.write((tx) => tx.putAlert(st.c.session, id, alert));
  work.publish(() => pub(st, st.topics.alerts, alert, false));
}

/** Count a refusal; the first of a burst raises its alert (committed before the message is acknowledged). */
export async function refused(st: DirectorState, r: Refusal): Promise<void> {
  const work = new Work();
  refusedInto(st, r, work);
  await commitWork(st, work);
}

/** Count a refusal into a message's work; the first of a burst raises its alert. */
export function refusedInto(st: DirectorState, r: Refusal, work: Work): void {
  const a = st.intake.refuse(r);
  if (a) raise(st, `${a.kind}:${a.table}:${r.reason}:${a.at}`, a, work);
}

/** A deal of a board the movement does not have: an alert for the director (a table's alerts are rate-limited). */
export function unknownBoard(st: DirectorState, ts: TableState, e: TableEvent & { board?: number }, work: Work): void {
  if (!st.intake.allowAlert(ts.id)) return refusedInto(st, { table: ts.id, reason: 'alert-rate' }, work);
  const a = unknownBoardAlert(st.c.session, ts.id, e.board!, e.seq!, st.now().toISOString());
  raise(st, `unknown-board:${ts.id}:${e.seq}`, a, work);
}

/** The refusals of the intake so far, by `"<table>:<reason>"`. */
export function refusals(st: DirectorState): Record<string, number> {
  return st.intake.counts();
}
