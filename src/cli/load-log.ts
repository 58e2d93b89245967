// Load any replayable file as table-log events: a .ndjson table log, a .pbn or a .lin hand record.
import { extname } from 'node:path';
import { loadRecords, recordToTableLog } from '../formats/index.js';
import { type TableEvent, parseTableLog } from '../formats/table-log.js';

export interface LoadedLog {
  events: TableEvent[];
  /** Problems with the input, each naming its line; the rest of the file is still used. */
  errors: { line: number; message: string }[];
  /** How many deals the input described. */
  deals: number;
}

/** Turn file text into table-log events, choosing the reader by the file name's extension. */
export function loadLog(text: string, fileName: string): LoadedLog {
  const ext = extname(fileName).toLowerCase();
  if (ext === '.pbn' || ext === '.lin') {
    const { records, errors } = loadRecords(text, fileName);
    const events: TableEvent[] = [];
    for (const r of records) events.push(...recordToTableLog(r));
    return { events, errors, deals: records.length };
  }
  const { events, errors } = parseTableLog(text);
  return { events, errors, deals: events.filter((e) => e.type === 'deal').length };
}
