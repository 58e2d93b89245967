// The players' part of a simulated session: at each table, round by round, wait for the assignment and the slot,
// scan the tray, play the cards and the terminal's commands, inject the planned faults, and record what was found.
// Apart from the runner, which only starts the machines and the tables and collects the outcome.
import { SEATS, type Seat } from '../../cards/seat.js';
import { dealAtTable } from '../../cards/tray-turn.js';
import type { TableEvent } from '../../formats/table-log.js';
import type { PlayTiming, SessionCheck } from './outcome.js';
import { type PlannedPlay, type SessionPlan, trayCodeOf } from './plan.js';
import type { SessionWatch } from './session-watch.js';
import type { SlotBarrier } from './slot-barrier.js';
import type { TableHandle } from './table-handle.js';
import { type HandTerminal, TableTerminal } from './terminals.js';

/** What every table's play shares: the broker's view, the pacing, the plan, the check to fill in, the faults. */
export interface PlayContext {
  chaos: { restartTable?: { table: number; play: number }; onPlayed?: (plays: number) => void };
  watch: SessionWatch;
  barrier: SlotBarrier;
  plan: SessionPlan;
  check: SessionCheck;
  timings: PlayTiming[];
  waitMs: number;
  signal?: AbortSignal;
  say: (line: string) => void;
}

/** One table's part: round by round, wait for the assignment, then each tray in its slot. */
export async function playTable(table: number, h: TableHandle, plays: readonly PlannedPlay[], ctx: PlayContext): Promise<void> {
  const { watch, plan } = ctx;
  for (const [i, p] of plays.entries()) {
    // What counts is what the table itself holds: its own subscription may lag behind the runner's.
    await watch.until(() => h.round() >= p.round, ctx.waitMs, `table ${table}'s assignment for round ${p.round}`, ctx.signal);
    await ctx.barrier.enter(p, ctx.signal);
    try {
      // An overplay waits for the tray's record: in the club the tray cannot reach the next table sooner.
      if (p.playIndex > 0) await watch.until(() => h.holdsRecord(p.board), ctx.waitMs, `table ${table} to hold the record of tray ${p.board}`, ctx.signal);
      if (p.wrongScan !== undefined) {
        await h.playEvents([{ type: 'tray', code: trayCodeOf(plan.session, p.wrongScan) }]);
        // The alert must reach the director before any card is played: wait for it before the right tray is scanned.
        const wrong = p.wrongScan;
        const alerted = await watch.until(() => watch.alerts.some((a) => a.kind === 'wrong-tray' && a.table === String(table) && a.board === wrong), 10_000, 'the wrong-tray alert', ctx.signal)
          .then(() => true, () => false);
        ctx.check.wrongTrays.push({ board: wrong, table, alerted });
      }
      const before = await h.lastSeq();
      await h.playEvents([{ type: 'tray', code: trayCodeOf(plan.session, p.board) }]);
      const deal = await waitForDeal(h, before, p.board, ctx);
      // Verified: the table started the overplay from the tray's record, laid as the tray lies (a turned tray's too).
      if (p.playIndex > 0 && deal.hands === dealAtTable(plan.trays.get(p.board)!.pbn, deal.turn ?? 0)) ctx.check.verified++;
      const r = ctx.chaos.restartTable;
      if (p.crash && h.process) {
        // The crash: SIGKILL of the table's daemon after the bridge has sent `afterCard` of the play's card events,
        // then `tenace run` again on its journal; the players play on once it is back.
        const cards = p.events.map((e, k) => (e.type === 'place' || e.type === 'lift' ? k : -1)).filter((k) => k >= 0);
        const cut = cards[p.crash.afterCard - 1] + 1;
        const head = p.events.slice(0, cut);
        const firstCard = head.findIndex((e) => e.type === 'place' || e.type === 'lift');
        await playAtTable(h, p, head.slice(0, firstCard), ctx, false);
        const crash = await h.process.crash(head.slice(firstCard), p.crash.delayMs);
        ctx.check.crashes.push({ table, board: p.board, afterCard: p.crash.afterCard, pid: crash.killed.pid, signal: crash.killed.signal, restartedPid: crash.restartedPid, downMs: crash.downMs });
        ctx.say(`table ${table}: its daemon (pid ${crash.killed.pid}) killed with ${crash.killed.signal} after ${p.crash.afterCard} card events of tray ${p.board}; started again (pid ${crash.restartedPid}) on its journal, back in ${crash.downMs} ms`);
        await playAtTable(h, p, p.events.slice(cut), ctx, true);
      } else if (r && r.table === table && r.play === i + 1) {
        // Stop the table between tricks (no card on the table, as after a power cut the players would re-place
        // any), start it again on its journal, and play on: the deal in progress is restored from the journal.
        const cut = trickBoundary(p.events);
        await h.playEvents(p.events.slice(0, cut));
        ctx.say(`table ${table} stopped and started again in the middle of tray ${p.board}`);
        await h.restart();
        await h.playEvents(p.events.slice(cut));
      } else {
        await playAtTable(h, p, p.events, ctx, true);
      }
      const lastCard = (await h.events(before)).filter((e) => e.type === 'place').at(-1);
      if (lastCard?.at) ctx.timings.push({ table, board: p.board, lastCardAt: Date.parse(lastCard.at), lastCardSeq: lastCard.seq });
      const result = await h.lastResult();
      if (p.fouled) {
        const f = result?.findings.find((x) => x.kind === 'card-not-in-hand');
        ctx.check.fouled.push({ board: p.board, table, found: !!f && p.fouled.cards.includes(f.card ?? ''), card: f?.card });
      }
      if (p.renounce) {
        const found = !!result?.findings.some((x) => x.kind === 'renounce-in-error' && x.seat === p.renounce!.seat);
        ctx.check.revokes.push({ board: p.board, table, seat: p.renounce.seat, found });
      }
    } finally {
      ctx.barrier.leave(p);
    }
    ctx.check.played++;
    ctx.chaos.onPlayed?.(ctx.check.played);
  }
}

/**
 * A play as the people at the table make it: the cards through the readers, and what the readers cannot see through
 * the table's terminal (its HTTP interface, as the page uses it): the contract, a claim and the opponents' answer
 * (a disputed claim calls the director, who lets it stand), and the opponents' acceptance of the result.
 */
export async function playAtTable(h: TableHandle, p: PlannedPlay, events: readonly TableEvent[], ctx: PlayContext, accept: boolean): Promise<void> {
  if (!h.url) return h.playEvents(events);
  if (events.length === 0 && !accept) return;
  const terminal = await TableTerminal.open(h.url, h.pin());
  let cards: TableEvent[] = [];
  const flush = async () => { if (cards.length) await h.playEvents(cards); cards = []; };
  for (const ev of events) {
    if (ev.type === 'place' || ev.type === 'lift') { cards.push(ev); continue; }
    await flush();
    if (ev.type === 'contract') await terminal.send('set-contract', { contract: ev.contract });
    else if (ev.type === 'claim') {
      const adversary = SEATS[(SEATS.indexOf(ev.seat) + 1) % 4];
      await terminal.send('claim', { seat: ev.seat, tricks: ev.tricks });
      if (p.claim?.disputed) {
        await terminal.send('answer-claim', { seat: adversary, accept: false, reason: 'we think we take a trick' });
        // The director comes, hears both sides, and lets the claim stand (L70): it is made again and accepted.
        await terminal.send('claim', { seat: ev.seat, tricks: ev.tricks });
      }
      await terminal.send('answer-claim', { seat: adversary, accept: true });
      // The tray's first play: the terminal asks the players to pass the cards they still hold over the readers.
      if (p.shown) cards.push(...p.shown);
    } else {
      await h.playEvents([ev]);
    }
  }
  await flush();
  if (accept && p.contract) {
    const declarer = p.contract.match(/([NESW])X{0,2}$/)![1];
    await terminal.send('accept-result', { seat: SEATS[(SEATS.indexOf(declarer as Seat) + 1) % 4], board: p.board }).catch((e: Error) => ctx.say(`table ${p.table}: ${e.message}`));
  }
}

/** A hand-scored table's part: round by round, wait for the assignment, then enter each tray's result on the terminal. */
export async function playHandScored(table: number, terminal: HandTerminal, plays: readonly PlannedPlay[], ctx: PlayContext): Promise<void> {
  const bridge = ctx.plan.variant === 'bridge';
  await terminal.login();
  for (const p of plays) {
    await ctx.watch.until(() => (ctx.watch.assignments.get(String(table))?.round ?? 0) >= p.round, ctx.waitMs, `table ${table}'s assignment for round ${p.round}`, ctx.signal);
    await ctx.barrier.enter(p, ctx.signal);
    try {
      const r = p.result!;
      // As the players tap it: board, contract and declarer (whist: N-S's tricks), the lead, the tricks; E-W accept.
      await terminal.enter(bridge
        ? { board: p.board, round: p.round, contract: p.contract, tricks: r.tricks, lead: r.lead }
        : { board: p.board, round: p.round, tricks: { NS: r.tricks, EW: 13 - r.tricks }, lead: r.lead });
    } finally {
      ctx.barrier.leave(p);
    }
    ctx.check.played++;
    ctx.chaos.onPlayed?.(ctx.check.played);
  }
}

/** The index just after the middle trick's last lift: no card lies on the table there. */
function trickBoundary(events: readonly TableEvent[]): number {
  let onTable = 0;
  let lifts = 0;
  let cut = 0;
  events.forEach((e, i) => {
    if (e.type === 'place') onTable++;
    if (e.type === 'lift') { onTable--; lifts++; }
    if (onTable === 0 && lifts > 0 && lifts <= 28) cut = i + 1;
  });
  return cut;
}

/** The table's deal event for `board` after `after`, polled from its journal; rejects after the wait or on abort. */
async function waitForDeal(h: TableHandle, after: number, board: number, ctx: PlayContext): Promise<Extract<TableEvent, { type: 'deal' }>> {
  const limit = Date.now() + ctx.waitMs;
  for (;;) {
    const found = (await h.events(after)).find((e): e is Extract<TableEvent, { type: 'deal' }> => e.type === 'deal' && e.board === board);
    if (found) return found;
    if (ctx.signal?.aborted) throw new Error('session stopped');
    if (Date.now() > limit) throw new Error(`timed out after ${ctx.waitMs / 1000} s waiting for table ${h.lastScan() ? `(last scan: ${h.lastScan()})` : ''} to start the deal of tray ${board}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
