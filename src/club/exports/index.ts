// The session exports: PBN 2.1 with results, USEBIO 1.2 XML and CSV travellers, each a pure function of a
// SessionExport. `sessionExports` gives the three as the director page serves them.
import type { SessionExport, TrayRecord } from '../types.js';
import type { BoardDd } from '../../dd/boards.js';
import { exportCsv } from './csv.js';
import { exportPbn } from './pbn.js';
import { exportUsebio } from './usebio.js';

export { exportCsv, parseCsv, csvField, CSV_COLUMNS } from './csv.js';
export { exportPbn, readPbnTables, pbnElement, type PbnTable } from './pbn.js';
export { exportUsebio, usebioPairNumbers, xmlEscape } from './usebio.js';
export { resultLines, type ResultLine } from './common.js';

/**
 * The three exports of a session, computed on demand (the shape `startDirectorWeb`'s `exports` option takes); the
 * PBN carries each board's double-dummy table and par once `dd` has them.
 */
export function sessionExports(get: () => SessionExport, dd?: (rec: TrayRecord, bridge: boolean) => BoardDd | undefined): { pbn(): string; usebio(): string; csv(): string } {
  return { pbn: () => exportPbn(get(), dd), usebio: () => exportUsebio(get()), csv: () => exportCsv(get()) };
}
