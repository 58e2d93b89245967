// `tenace trays import|show|doctor`: put a dealing machine's hand records on the broker as the session's tray records,
// read them back, and tell a director at the table how to restore a fouled tray (docs/club.md).
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { MqttClient } from 'mqtt';
import { parsePbn } from '../formats/pbn.js';
import { printable } from '../formats/quote.js';
import { DEFAULT_BASE, sessionTopics } from '../feed/topics.js';
import {
  BrokerUnreachable, closeBroker, openBroker, publishRecord, readTrayRecords, sameHands,
} from '../club/trays/broker.js';
import { doctorLines, fouledTrayOutcome, readHandRecords, trayDoctorReport } from '../club/trays/index.js';
import type { TrayRecord } from '../club/types.js';
import { type CliIo, EX_USAGE, STDIO, parseCommand } from './args.js';

const EX_DATAERR = 65;
const EX_NOINPUT = 66;
const EX_UNAVAILABLE = 69;
const EX_NOPERM = 77;
const DEFAULT_BROKER = 'mqtt://127.0.0.1:1883';

const USAGE = `usage: tenace trays import FILE.pbn --club C --session S [--broker URL] [--base tenace] [--variant NAME]
                          [--username U --password-file F] [--replace] [--dry-run] [--json]
       tenace trays show --club C --session S [--board N] [--broker URL] [--base tenace] [--username U --password-file F] [--json]
       tenace trays doctor RECORD.pbn TABLE.pbn [--board N] [--tables T] [--when overplay|original] [--json]
       tenace trays doctor --record HANDS --table HANDS [--tables T] [--when overplay|original] [--json]

  import   publish each board of a dealing machine's hand-record file (Dealer4, Duplimate, BigDeal PBN) as the
           session's tray record: retained, QoS 1, on <base>/<club>/trays/<session>/<board>, and wait for the broker
           to acknowledge every one. A board the broker already holds with different hands is kept (the first record
           stands) unless --replace is given; the same hands are left as they are.
           --variant NAME   the game the session plays (default bridge: the records carry the vulnerability)
           --dry-run        print what would be published; the broker is not contacted
  show     print the session's tray records as the broker holds them
  doctor   compare a tray record with the cards a table found in its pockets: each misplaced card and the move that
           restores it (from pocket, to pocket), cards missing or extra, and with --tables T what the laws give
           (Dup. III.2, IV.8-10, V.1). HANDS is a PBN deal, e.g. "N:AKQJ.T98.765.432 T98.765.432.AKQJ ...".
           --when original   the fault was found on the original play (default: on the overplay)

exit: 0 done (doctor: the tray matches); 1 import kept a different record, show --board found none, doctor found
      differences; 64 usage; 65 bad PBN or hands; 66 missing file; 69 broker unreachable; 77 the broker refused us
`;

/** Run `tenace trays`; resolves to the exit code. */
export async function traysCommand(argv: string[], io: CliIo = STDIO): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined) { io.err(USAGE); return EX_USAGE; }
  if (sub === '--help' || sub === '-h' || sub === 'help') { io.out(USAGE); return 0; }
  if (sub === 'import') return importCommand(rest, io);
  if (sub === 'show') return showCommand(rest, io);
  if (sub === 'doctor') return doctorCommand(rest, io);
  const parsed = parseCommand('trays', USAGE, { args: argv, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } }, io);
  if (typeof parsed === 'number') return parsed;
  io.err(`tenace trays: unknown subcommand "${printable(sub, 40)}": use import, show or doctor\n${USAGE}`);
  return EX_USAGE;
}

const BROKER_OPTIONS = {
  club: { type: 'string' }, session: { type: 'string' }, broker: { type: 'string' }, base: { type: 'string' },
  username: { type: 'string' }, 'password-file': { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
} as const;

interface BrokerArgs { club?: string; session?: string; broker?: string; base?: string; username?: string; 'password-file'?: string }

/** Check --club, --session and --base as topic levels and read the password file; a sentence on error. */
function brokerSetup(name: string, v: BrokerArgs, io: CliIo): { club: string; session: string; base: string; url: string; username?: string; password?: string } | number {
  if (!v.club || !v.session) {
    io.err(`tenace trays ${name}: --club and --session are required (the topic is <base>/<club>/trays/<session>/<board>)\n${USAGE}`);
    return EX_USAGE;
  }
  const base = v.base ?? DEFAULT_BASE;
  try {
    sessionTopics(v.club, v.session, base);
  } catch (e) {
    io.err(`tenace trays ${name}: --${(e as Error).message}\n`);
    return EX_USAGE;
  }
  let password: string | undefined;
  if (v['password-file'] !== undefined) {
    if (v.username === undefined) { io.err(`tenace trays ${name}: --password-file needs --username\n`); return EX_USAGE; }
    try {
      password = readFileSync(v['password-file'], 'utf8').split('\n')[0].replace(/\r$/, '');
    } catch (e) {
      io.err(`tenace trays ${name}: --password-file: cannot read ${v['password-file']}: ${(e as Error).message}\n`);
      return EX_NOINPUT;
    }
  }
  return { club: v.club, session: v.session, base, url: v.broker ?? DEFAULT_BROKER, username: v.username, password };
}

/** Connect, or print why not and give the exit code. */
async function connect(name: string, url: string, username: string | undefined, password: string | undefined, io: CliIo): Promise<MqttClient | number> {
  try {
    return await openBroker({ url, username, password });
  } catch (e) {
    // BrokerUnreachable carries the sentence; anything else (a bad URL) is still a broker we cannot use.
    io.err(`tenace trays ${name}: ${e instanceof BrokerUnreachable ? (e as Error).message : `cannot use the broker ${url}: ${(e as Error).message}`}\n`);
    return EX_UNAVAILABLE;
  }
}

// ------------------------------------------------------------------------------------------------------- import

async function importCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommand('trays import', USAGE, {
    args: argv, allowPositionals: true,
    options: { ...BROKER_OPTIONS, variant: { type: 'string' }, replace: { type: 'boolean' }, 'dry-run': { type: 'boolean' } },
  }, io);
  if (typeof args === 'number') return args;
  const v = args.values;
  const file = args.positionals[0];
  if (!file || args.positionals.length > 1) {
    io.err(`tenace trays import: give one FILE.pbn${file ? ` (got ${args.positionals.length})` : ''}\n${USAGE}`);
    return EX_USAGE;
  }
  const setup = brokerSetup('import', v, io);
  if (typeof setup === 'number') return setup;
  if (!existsSync(file)) { io.err(`tenace trays import: ${file}: no such file\n`); return EX_NOINPUT; }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    io.err(`tenace trays import: cannot read ${file}: ${(e as Error).message}\n`);
    return EX_NOINPUT;
  }
  const at = new Date().toISOString();
  const { records, errors } = readHandRecords(text, { session: setup.session, file: basename(file), at, variant: v.variant });
  if (errors.length > 0 || records.length === 0) {
    for (const e of errors.slice(0, 20)) io.err(`${printable(`${file}: ${e}`)}\n`);
    if (errors.length > 20) io.err(`${file}: ${errors.length - 20} more problems not shown\n`);
    if (errors.length === 0) io.err(`${file}: no board to import\n`);
    io.err('tenace trays import: nothing was published\n');
    return EX_DATAERR;
  }
  const topics = sessionTopics(setup.club, setup.session, setup.base);

  if (v['dry-run']) {
    if (v.json) io.out(JSON.stringify({ dryRun: true, club: setup.club, session: setup.session, records: records.map((r) => ({ topic: topics.tray(r.board), record: r })) }) + '\n');
    else {
      for (const r of records) io.out(`would publish board ${r.board} (retained, QoS 1) on ${topics.tray(r.board)}: ${JSON.stringify(r)}\n`);
      io.out(`${records.length} record${records.length === 1 ? '' : 's'}; dry run: the broker was not contacted, so records already there were not checked\n`);
    }
    return 0;
  }

  const client = await connect('import', setup.url, setup.username, setup.password, io);
  if (typeof client === 'number') return client;
  const published: { board: number; topic: string; rev: number }[] = [];
  const unchanged: number[] = [];
  const kept: { board: number; existing: TrayRecord['source']; rev: number }[] = [];
  let code = 0;
  try {
    // Read first: the first record of a tray stands (docs/club.md), so a different one is not overwritten blindly.
    const existing = await readTrayRecords(client, setup.club, setup.session, setup.base);
    for (const bad of existing.invalid) io.err(`tenace trays import: ${bad.topic} holds something else (${bad.why})${v.replace ? '; --replace overwrites it' : '; kept: give --replace to overwrite it'}\n`);
    const invalidBoards = new Set(existing.invalid.map((b) => Number(b.topic.slice(b.topic.lastIndexOf('/') + 1))));
    const sends: Promise<void>[] = [];
    for (const r of records) {
      const topic = topics.tray(r.board);
      const old = existing.records.get(r.board);
      if (old && sameHands(old.hands, r.hands)) { unchanged.push(r.board); continue; }
      if ((old || invalidBoards.has(r.board)) && !v.replace) {
        if (old) kept.push({ board: r.board, existing: old.source, rev: old.rev });
        continue;
      }
      const rec: TrayRecord = old ? { ...r, rev: (Number.isInteger(old.rev) ? old.rev : 1) + 1 } : r;
      sends.push(publishRecord(client, topic, rec).then(() => { published.push({ board: r.board, topic, rev: rec.rev }); }));
    }
    // Every PUBACK before exit 0: the records are on the broker when it says so.
    const settled = await Promise.allSettled(sends);
    const refused = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (refused.length > 0) {
      io.err(`tenace trays import: the broker refused ${refused.length} record${refused.length === 1 ? '' : 's'}: ${(refused[0].reason as Error).message} (does --username may write ${topics.traysFilter}?)\n`);
      code = EX_NOPERM;
    }
  } catch (e) {
    io.err(`tenace trays import: ${(e as Error).message}\n`);
    code = /refused|ACL/.test((e as Error).message) ? EX_NOPERM : EX_UNAVAILABLE;
  } finally {
    await closeBroker(client);
  }
  published.sort((a, b) => a.board - b.board);
  if (code === 0 && kept.length > 0) code = 1;
  if (v.json) {
    io.out(JSON.stringify({ club: setup.club, session: setup.session, file: basename(file), broker: setup.url, published, unchanged, kept }) + '\n');
  } else {
    for (const p of published) io.out(`board ${p.board}: published on ${p.topic}${p.rev > 1 ? ` (rev ${p.rev}, replacing the record there)` : ''}\n`);
    for (const b of unchanged) io.out(`board ${b}: already on the broker with the same hands; left as it is\n`);
    for (const k of kept) io.out(`board ${k.board}: the broker holds different hands (${sourceText(k.existing)}, rev ${k.rev}); kept, the first record stands: give --replace to overwrite it\n`);
    io.out(`${records.length} board${records.length === 1 ? '' : 's'}: ${published.length} published, ${unchanged.length} unchanged, ${kept.length} kept\n`);
  }
  return code;
}

function sourceText(s: TrayRecord['source'] | undefined): string {
  if (!s) return 'source unknown';
  if (s.kind === 'original-play') return `original play at table ${s.table}, ${s.at}`;
  if (s.kind === 'hand-record') return `hand record ${s.file}, ${s.at}`;
  return `correction by ${s.by}: ${s.reason}, ${s.at}`;
}

// ------------------------------------------------------------------------------------------------------- show

async function showCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommand('trays show', USAGE, { args: argv, allowPositionals: false, options: { ...BROKER_OPTIONS, board: { type: 'string' } } }, io);
  if (typeof args === 'number') return args;
  const v = args.values;
  const setup = brokerSetup('show', v, io);
  if (typeof setup === 'number') return setup;
  let board: number | undefined;
  if (v.board !== undefined) {
    board = Number(v.board);
    if (!/^\d+$/.test(v.board) || board < 1) { io.err(`tenace trays show: --board "${printable(v.board, 20)}" must be a board number, 1 or more\n`); return EX_USAGE; }
  }
  const client = await connect('show', setup.url, setup.username, setup.password, io);
  if (typeof client === 'number') return client;
  let found: Awaited<ReturnType<typeof readTrayRecords>>;
  try {
    found = await readTrayRecords(client, setup.club, setup.session, setup.base);
  } catch (e) {
    io.err(`tenace trays show: ${(e as Error).message}\n`);
    return /refused|ACL/.test((e as Error).message) ? EX_NOPERM : EX_UNAVAILABLE;
  } finally {
    await closeBroker(client);
  }
  for (const bad of found.invalid) io.err(`tenace trays show: ${bad.topic} holds something else (${bad.why})\n`);
  const records = [...found.records.entries()].filter(([b]) => board === undefined || b === board).sort((a, b) => a[0] - b[0]).map(([, r]) => r);
  if (v.json) io.out(JSON.stringify(board === undefined ? records : records[0] ?? null) + '\n');
  else if (records.length === 0) io.out(`no tray record${board === undefined ? 's' : ` for board ${board}`} for session ${setup.session} of club ${setup.club} at ${setup.url}\n`);
  else for (const r of records) io.out(recordText(r));
  return board !== undefined && records.length === 0 ? 1 : 0;
}

/** A record for people: one head line, then the four pockets. */
function recordText(r: TrayRecord): string {
  const head = [`board ${r.board}`, `dealer ${r.dealer}`, r.vulnerable ? `vul ${r.vulnerable}` : '', r.trumpCard ? `trump card ${r.trumpCard}` : '', r.trump ? `trump ${r.trump} (declared)` : '', r.variant ?? '', `rev ${r.rev}`, sourceText(r.source)].filter((x) => x !== '');
  const lines = [head.join('  ')];
  const t = r.hands.trim();
  const first = 'NESW'.indexOf(t[0]);
  t.slice(2).trim().split(/\s+/).forEach((h, i) => lines.push(`  ${'NESW'[(first + i) & 3]}  ${h}`));
  return lines.join('\n') + '\n';
}

// ------------------------------------------------------------------------------------------------------- doctor

/** The raw [Deal] of board `board` in a PBN file (raw: a fouled tray may hold a card twice), or an error sentence. */
function dealOfBoard(file: string, board: number | undefined): { hands: string } | { error: string; code: number } {
  if (!existsSync(file)) return { error: `${file}: no such file`, code: EX_NOINPUT };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return { error: `cannot read ${file}: ${(e as Error).message}`, code: EX_NOINPUT };
  }
  const games = parsePbn(text).records.filter((r) => r.tags.Deal && r.tags.Deal.trim() !== '');
  const pick = board === undefined ? games : games.filter((r) => r.board === board || r.tags.Board?.trim() === String(board));
  if (pick.length === 0) return { error: `${file}: no game with a [Deal]${board === undefined ? '' : ` for [Board "${board}"]`}`, code: EX_DATAERR };
  if (pick.length > 1 && board === undefined) return { error: `${file} holds ${pick.length} games: give --board N`, code: EX_USAGE };
  return { hands: pick[0].tags.Deal.trim() };
}

async function doctorCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommand('trays doctor', USAGE, {
    args: argv, allowPositionals: true,
    options: { record: { type: 'string' }, table: { type: 'string' }, board: { type: 'string' }, tables: { type: 'string' }, when: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  }, io);
  if (typeof args === 'number') return args;
  const v = args.values;
  let board: number | undefined;
  if (v.board !== undefined) {
    board = Number(v.board);
    if (!/^\d+$/.test(v.board) || board < 1) { io.err(`tenace trays doctor: --board "${printable(v.board, 20)}" must be a board number, 1 or more\n`); return EX_USAGE; }
  }
  let tables: number | undefined;
  if (v.tables !== undefined) {
    tables = Number(v.tables);
    if (!/^\d+$/.test(v.tables) || tables < 1) { io.err(`tenace trays doctor: --tables "${printable(v.tables, 20)}" must be the number of tables in play, 1 or more\n`); return EX_USAGE; }
  }
  const when = v.when ?? 'overplay';
  if (when !== 'overplay' && when !== 'original') { io.err(`tenace trays doctor: --when must be overplay or original (got "${printable(when, 20)}")\n`); return EX_USAGE; }
  let record: string;
  let table: string;
  if (args.positionals.length === 2 && v.record === undefined && v.table === undefined) {
    const r = dealOfBoard(args.positionals[0], board);
    if ('error' in r) { io.err(`tenace trays doctor: record: ${r.error}\n`); return r.code; }
    const t = dealOfBoard(args.positionals[1], board);
    if ('error' in t) { io.err(`tenace trays doctor: table: ${t.error}\n`); return t.code; }
    record = r.hands;
    table = t.hands;
  } else if (args.positionals.length === 0 && v.record !== undefined && v.table !== undefined) {
    record = v.record;
    table = v.table;
  } else {
    io.err(`tenace trays doctor: give RECORD.pbn TABLE.pbn, or --record HANDS --table HANDS\n${USAGE}`);
    return EX_USAGE;
  }
  let report;
  try {
    report = trayDoctorReport(record, table);
  } catch (e) {
    io.err(`tenace trays doctor: ${(e as Error).message}\n`);
    return EX_DATAERR;
  }
  const fouled = report.moves.length + report.missing.length + report.extra.length > 0;
  const outcome = fouled && tables !== undefined ? fouledTrayOutcome(tables, when) : undefined;
  if (v.json) {
    io.out(JSON.stringify({ board, fouled, ...report, ...(outcome ? { outcome } : {}) }) + '\n');
  } else if (!fouled) {
    io.out(`${board !== undefined ? `board ${board}: ` : ''}the tray matches its record: nothing to move\n`);
  } else {
    const n = report.moves.length;
    io.out(`${board !== undefined ? `board ${board}: ` : ''}the tray is fouled: ${n} card${n === 1 ? '' : 's'} to move${report.missing.length ? `, ${report.missing.length} missing` : ''}${report.extra.length ? `, ${report.extra.length} extra` : ''}\n`);
    for (const line of doctorLines(report)) io.out(`  ${line}\n`);
    if (outcome) io.out(`${outcome.law}: ${outcome.remedy}: ${outcome.message}\n`);
    else io.out('give --tables T for what the laws give (Dup. III.2, IV.8-10, V.1 choose by the number of tables in play)\n');
  }
  return fouled ? 1 : 0;
}
