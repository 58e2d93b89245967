// Load any replayable file as table-log events: a .ndjson table log, a .pbn or a .lin hand record.
import { type DealRecord, type InputFormat, detectFormat, isPlayable, parseLin, parsePbn, recordToTableLog } from '../formats/index.js';
import { type TableEvent, parseTableLog } from '../formats/table-log.js';

export interface LoadedLog {
  events: TableEvent[];
  /** Problems with the input, each naming its line; the rest of the file is still used. */
  errors: { line: number; message: string }[];
  /** How many deals the input described. */
  deals: number;
  /** How many of them can be replayed: the hands are known or a card was played. */
  playable: number;
  /** The reader chosen, by content or else by the file name; absent when none fits. */
  format?: InputFormat;
  /** PBN and LIN: the record behind each deal event, in order (its Event, players, a passed-out auction). */
  records?: DealRecord[];
}

/** Turn file text into table-log events, choosing the reader by the content, or else by the file name. */
export function loadLog(text: string, fileName: string): LoadedLog {
  const detected = detectFormat(text, fileName);
  if ('error' in detected) return { events: [], errors: [{ line: 1, message: detected.error }], deals: 0, playable: 0 };
  const { format } = detected;
  if (format === 'table-log') {
    const { events, errors } = parseTableLog(text);
    return { events, errors, deals: events.filter((e) => e.type === 'deal').length, playable: playableDeals(events), format };
  }
  const parsed = format === 'pbn' ? parsePbn(text) : parseLin(text);
  const errors = [...parsed.errors];
  const records: DealRecord[] = [];
  const events: TableEvent[] = [];
  for (const r of parsed.records) {
    if (!isPlayable(r)) {
      // A game of tags alone (a file cut inside its Deal tag, or junk read as PBN) would replay as an empty board.
      errors.push({ line: r.line ?? 0, message: `${r.board !== undefined ? `board ${r.board}` : 'this game'} has neither a deal nor any card played, so it is not replayed` });
      continue;
    }
    records.push(r);
    events.push(...recordToTableLog(r));
  }
  errors.sort((a, b) => a.line - b.line);
  return { events, errors, deals: parsed.records.length, playable: records.length, format, records };
}

/** Deals of a table log that hold something to replay: the tray's hands, a card or a claim. */
function playableDeals(events: readonly TableEvent[]): number {
  let playable = 0;
  // null: no deal open; cards before any deal event open one, as the engine does.
  let open: boolean | null = null;
  for (const e of events) {
    if (e.type === 'deal' || e.type === 'abandon') {
      if (open) playable++;
      open = e.type === 'deal' ? e.hands !== undefined : null;
    } else if (e.type === 'place' || e.type === 'claim') {
      open = true;
    }
  }
  return open ? playable + 1 : playable;
}
