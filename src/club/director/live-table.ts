// One table followed live on the public results (issue 17: "a tap into any table's live view (cards shown only as the
// embargo allows)"). Anyone may read it, so the cards of a board are shown only once every other table scheduled for
// that board has played it: nothing here reveals a card of a tray another table has still to play.
import type { Seat } from '../../cards/seat.js';
import type { DirectorState } from './state.js';

/** What the public live view of a table shows. */
export interface LiveTable {
  schema: 1;
  type: 'tenace.live-table';
  session: string;
  table: string;
  round: number | null;
  status: string;
  ns?: string;
  ew?: string;
  /** The players' names by pair, where the director has them. */
  names: Record<string, string>;
  /** The board in play (or the last played), with its cards only when `shown`. */
  deal: {
    board: number;
    over: boolean;
    trick: number;
    /** Every other table scheduled for this board has played it: the cards may be shown. */
    shown: boolean;
    contract?: string;
    won?: { NS: number; EW: number };
    tricks?: { leader: Seat; cards: Partial<Record<Seat, string>>; winner: Seat }[];
    current?: { seat: Seat; card: string }[];
  } | null;
  at: string;
}

/** The public live view of table `id`; null when the session has no such table. */
export function liveTable(st: DirectorState, id: string): LiveTable | null {
  const ts = st.tables.get(id);
  if (!ts) return null;
  const a = st.assignments.get(id);
  const names: Record<string, string> = {};
  for (const pair of [a?.ns, a?.ew]) {
    const n = pair ? st.players?.label(pair) : undefined;
    if (pair && n) names[pair] = n;
  }
  const played = ts.fold.played();
  let deal: LiveTable['deal'] = null;
  if (played) {
    const shown = othersPlayed(st, ts.no, played.board);
    const trick = played.over ? played.tricks.length : played.tricks.length + 1;
    deal = {
      board: played.board, over: played.over, trick, shown,
      ...(shown ? {
        ...(played.contract ? { contract: played.contract } : {}), won: played.won,
        tricks: played.tricks.map((t) => ({ leader: t.leader, cards: t.cards, winner: t.winner })), current: played.current,
      } : {}),
    };
  }
  return {
    schema: 1, type: 'tenace.live-table', session: st.c.session, table: id, round: a?.round ?? null, status: ts.status,
    ...(a?.ns ? { ns: a.ns } : {}), ...(a?.ew ? { ew: a.ew } : {}), names, deal, at: st.now().toISOString(),
  };
}

/** Whether every table scheduled for `board`, other than table number `no`, has a result for it. */
function othersPlayed(st: DirectorState, no: number, board: number): boolean {
  const byNo = new Map([...st.tables.values()].map((t) => [t.no, t.id]));
  const done = st.playedAt.get(board) ?? [];
  return st.index.playsOf(board).every((p) => p.table === no || done.includes(byNo.get(p.table) ?? ''));
}
