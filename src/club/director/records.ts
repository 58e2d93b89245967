// Tray records: the record made from a tray's first play, and a later play compared with it (a fouled tray).
import type { ClubAlert, TrayRecord } from '../types.js';
import { getVariant } from '../../laws/variants.js';
import type { Completion } from './fold.js';
import { type DirectorState, type TableState, Work, warnOnce } from './state.js';
import { pub } from './mqtt.js';
import { raise } from './alerts.js';

/**
 * A deal's play against its tray's record: the record made from an original play, or a fouled-tray alert. False
 * while the deal may still complete its hands (a claim standing or accepted, the players passing the cards they hold
 * over their readers): the next event of the deal asks again.
 */
export function checkRecord(st: DirectorState, ts: TableState, c: Completion, round: number | undefined, work: Work): boolean {
  const original = c.deal.hands === undefined && c.deal.overplay !== true;
  const existing = st.records.get(c.board);
  if (existing?.source.kind === 'original-play' && existing.source.table === ts.id && existing.source.fromSeq === c.fromSeq) return true;
  if (!existing && !original) return true;
  let mine: TrayRecord | null;
  try {
    mine = st.fns.recordFromPlay({ session: st.c.session, table: ts.id, events: c.events, result: c.result, at: st.now().toISOString(), variant: st.c.variant, folded: c.folded });
  } catch (err) {
    warnOnce(st, 'recordFromPlay', { err: (err as Error).message }, 'director: cannot make tray records');
    return true;
  }
  // A claim standing or accepted: the hands may still be completed by the cards shown after it.
  if (!mine) return !c.events.some((e) => e.type === 'claim');
  if (!existing) {
    const rec: TrayRecord = { ...mine, rev: 1 };
    st.records.set(rec.board, rec);
    let stands = true;
    // Another director instance stored this tray's original first (a cluster): that record stands, and this play
    // is compared with it as any later play is.
    work.write((tx) => tx.putFirstTray(st.c.session, rec, async (tx) => {
      const first = await tx.tray(st.c.session, rec.board);
      if (!first) return;
      stands = false;
      st.records.set(first.board, first);
      const fouled = fouledAlert(st, ts, c, round, first, mine, original);
      if (fouled && !st.alertIds.has(fouled.id) && await tx.putAlert(st.c.session, fouled.id, fouled.alert)) {
        st.alertIds.add(fouled.id);
        st.alerts.push(fouled.alert);
        work.publish(() => pub(st, st.topics.alerts, fouled.alert, false));
      }
    }));
    work.publish(() => {
      if (stands) pub(st, st.topics.tray(rec.board), rec, true);
    });
    return true;
  }
  const fouled = fouledAlert(st, ts, c, round, existing, mine, original);
  if (fouled) raise(st, fouled.id, fouled.alert, work);
  return true;
}

/** The fouled-tray alert when a play's hands differ from the record, with the tray doctor's moves; null when equal. */
export function fouledAlert(st: DirectorState, ts: TableState, c: Completion, round: number | undefined, existing: TrayRecord, mine: TrayRecord, original: boolean): { id: string; alert: ClubAlert } | null {
  // Both made by recordFromPlay (or given in its form): the same text is the same hands, without parsing either.
  if (existing.hands === mine.hands) return null;
  try {
    const differences = st.fns.handDifferences(existing.hands, mine.hands);
    if (differences.length === 0) return null;
    const moves = st.fns.trayDoctor(existing.hands, mine.hands);
    const outcome = st.fns.fouledTrayOutcome(st.schedule.tables, original ? 'original' : 'overplay', 'hands', getVariant(st.c.variant).trump === 'contract' ? 'bridge' : 'whist');
    const cards = differences.map((d) => `${d.card} (${d.table} here, ${d.record} in the record)`).join(', ');
    return {
      id: `fouled-tray:${ts.id}:${c.board}:${c.fromSeq}`,
      alert: {
        schema: 1, type: 'tenace.alert', kind: 'fouled-tray', session: st.c.session, table: ts.id, board: c.board,
        ...(round !== undefined ? { round } : {}), law: outcome.law,
        message: `Tray ${c.board} at table ${ts.id} held other hands than its record: ${cards}. ${outcome.law}: ${outcome.message}`,
        differences, moves, outcome, seq: c.toSeq, at: st.now().toISOString(),
      },
    };
  } catch (err) {
    warnOnce(st, 'handDifferences', { err: (err as Error).message }, 'director: cannot compare tray records');
    return null;
  }
}

/** The tray records in force (latest revision of each board). */
export function trayRecords(st: DirectorState): TrayRecord[] {
  return [...st.records.values()].sort((a, b) => a.board - b.board);
}
