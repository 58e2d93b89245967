// The feed's commands and queries (mqtt-feed.ts): a command checked, de-duplicated by its transaction (a QoS 1
// redelivery or a retry is answered again, never applied twice) and handed to the daemon's handler; a
// `request/events` query answered from the journal. The feed runs them one at a time, in arrival order.
import type { TableEvent } from '../formats/table-log.js';
import { type FeedCommand, type TransactionIndex, checkCommand, checkEventsQuery } from './commands.js';
import { CommandRejected, type CommandHandler, type CommandResponse, type EventSource, type FeedLogger, type FeedStats } from './feed-types.js';
import { isSeq } from './memory.js';

/** What the commands and queries are decided with: the feed's log, counters, transactions, handler and journal. */
export interface CommandDesk {
  log: FeedLogger;
  stats: FeedStats;
  transactions: TransactionIndex;
  handler: CommandHandler | undefined;
  source: EventSource;
  /** The journal's session name, sent with `response/events`. */
  session: string | null;
}

/** Check, look up and apply one command; the answer to send. */
export async function decideCommand(d: CommandDesk, cmd: string, payload: Buffer): Promise<CommandResponse> {
  const check = checkCommand(cmd, payload);
  if (!check.ok) {
    d.stats.malformedCommands++;
    d.log.warn({ cmd, error: check.error, transaction: check.transaction }, 'malformed command refused');
    return { transaction: check.transaction, ok: false, error: check.error };
  }
  // A redelivered (QoS 1 DUP) or retried request is answered again, never applied twice.
  const c = check.command;
  const seen = d.transactions.lookup(c);
  if (seen.kind === 'repeat') {
    d.stats.duplicateCommands++;
    return { ...seen.answer, transaction: c.transaction, ok: true };
  }
  if (seen.kind === 'conflict') {
    d.stats.commandsRefused++;
    d.log.warn({ cmd, transaction: c.transaction, error: seen.error }, 'transaction id reused for another command; refused');
    return { transaction: c.transaction, ok: false, error: seen.error };
  }
  const response = await runHandler(d, c);
  if (response.ok) {
    const { transaction: _t, ok: _o, ...answer } = response;
    d.transactions.record(c, answer);
  }
  return response;
}

/** The answer to `request/events`: the journal events after `after`, a page of at most `limit`; nothing journaled. */
export function answerEventsQuery(d: CommandDesk, payload: Buffer): CommandResponse {
  d.stats.queries++;
  const q = checkEventsQuery(payload);
  if (!q.ok) {
    d.log.warn({ cmd: 'events', error: q.error, transaction: q.transaction }, 'malformed query refused');
    return { transaction: q.transaction, ok: false, error: q.error };
  }
  const events: TableEvent[] = [];
  for (const ev of d.source.eventsAfter(q.query.after)) {
    if (events.length >= q.query.limit) break;
    events.push(ev);
  }
  return { transaction: q.query.transaction, ok: true, session: d.session, events, last: lastSourceSeq(d.source) };
}

/** The last seq in the journal: its own count where it keeps one, else read through. */
function lastSourceSeq(src: EventSource): number {
  if (typeof src.lastSeq === 'function') return src.lastSeq();
  let last = 0;
  for (const ev of src.eventsAfter(-1)) if (isSeq(ev.seq)) last = ev.seq;
  return last;
}

/** Hand a checked, new command to the daemon's handler; a refusal is the sender's sentence, a failure is logged. */
async function runHandler(d: CommandDesk, c: FeedCommand): Promise<CommandResponse> {
  if (!d.handler) {
    d.stats.commandsRefused++;
    return { transaction: c.transaction, ok: false, error: `command: this table accepts no ${c.name} commands (no handler); ask the director` };
  }
  try {
    const result = await d.handler(c);
    d.stats.commandsHandled++;
    return { ...(result ?? {}), transaction: c.transaction, ok: true };
  } catch (err) {
    d.stats.commandsRefused++;
    const msg = err instanceof Error ? err.message : String(err);
    if (!(err instanceof CommandRejected)) d.log.error({ err: msg, cmd: c.name }, 'command handler failed');
    return { transaction: c.transaction, ok: false, error: msg };
  }
}
