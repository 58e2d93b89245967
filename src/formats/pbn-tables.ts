// The tables of PBN 2.1 §5.2 (ScoreTable, TotalScoreTable, OptimumResultTable) read back as columns and rows.

/** One table read back from PBN text: its column names (without widths or order marks) and rows of elements. */
export interface PbnTable { board?: number; columns: string[]; rows: string[][] }

/**
 * Read the tables named `tagName` (ScoreTable, TotalScoreTable) back from PBN text, with the board of the game each
 * belongs to. Lenient like PBN import: elements are tokens or quoted strings; the table ends at the next tag or an
 * empty line.
 */
export function readPbnTables(text: string, tagName: string): PbnTable[] {
  const out: PbnTable[] = [];
  let board: number | undefined;
  let current: PbnTable | null = null;
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (line === '') { current = null; board = undefined; continue; }
    if (line.startsWith('%')) continue;
    const t = /^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$/.exec(line);
    if (t) {
      current = null;
      if (t[1] === 'Board') board = Number(t[2]);
      if (t[1] === tagName) {
        const columns = t[2].replace(/\\(["\\])/g, '$1').split(';').map((c) => c.replace(/\\\d+[LR]?$/, '').replace(/^[+-]/, ''));
        current = { columns, rows: [] };
        if (board !== undefined) current.board = board;
        out.push(current);
      }
      continue;
    }
    if (current) {
      const cells = [...line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]));
      current.rows.push(cells);
    }
  }
  return out;
}
