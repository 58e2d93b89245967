// `tenace session simulate`: a whole club session on this machine (src/club/session/).
import { createServer } from 'node:net';
import { consoleLogger } from '../config/console-log.js';
import { missingSqliteFolder } from './director.js';
import { movementByName, MOVEMENTS } from '../club/movements/index.js';
import { planSession, type SessionFaults } from '../club/session/plan.js';
import { runSession } from '../club/session/runner.js';
import { closest } from '../config/suggest.js';
import { findSocat } from '../hardware/pty.js';
import { getVariant, variantNames } from '../laws/variants.js';
import { EX_USAGE, STDIO, parseCommand } from './args.js';

const USAGE = 'usage: tenace session simulate --tables N --movement NAME [--boards-per-round B] [--option K=V]... [--variant duplicate-whist|bridge]\n'
  + '         [--trump S|H|D|C] [--broker URL] [--db FILE] [--speed X|max] [--seed S] [--faults fouled=N,wrong-tray=N,revokes=N,crash=N]\n'
  + '         [--manual N] [--claims N] [--http-port P] [--serial auto|pty|loopback] [--club C] [--session S] [--json] [--exit] [--log-level L] [--log-json]\n'
  + '  --faults      fouled trays, wrong-tray scans and renounces in error to inject; crash=N runs N tables (chosen by the\n'
  + '                seed) as their own `tenace run` processes with their journals on disk, kills each with SIGKILL once at\n'
  + '                a seeded moment of a deal, and starts it again on its journal (needs socat for their serial lines)\n'
  + '  --manual N    the last N tables are hand-scored: no readers, their results entered on the director\'s terminal (/hand/)\n'
  + '  --claims N    N plays end with a claim of the last tricks, the first at a tray\'s first play (default: one in six)\n'
  + '  --http-port P the director page\'s port (default 8080; 0 picks a free one)\n'
  + '  --log-json    the log as JSON lines even on a terminal (it is JSON whenever stderr is not a terminal)\n'
  + '  --speed X     a multiple of real play (a card event every 1.5 s at each table); default 10; max: as fast as it goes\n'
  + '  --trump S     a suit declared trumps for the sitting, no trump turned (Dup. IV.11; Memory Duplicate)\n'
  + '  --db FILE     keep the director\'s SQLite database in FILE (default: a temporary one)\n'
  + '  --exit        stop when the session is scored (default: keep the director page open until Ctrl-C)\n';

/** Run `tenace session <sub>`; resolves to the exit code. */
export async function sessionCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === '--help' || sub === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (sub !== 'simulate') {
    process.stderr.write(`tenace session: ${sub ? `unknown subcommand "${sub}"` : 'a subcommand is needed'}: use "simulate"\n${USAGE}`);
    return EX_USAGE;
  }
  const args = parseCommand('session simulate', USAGE, {
    args: rest,
    options: {
      tables: { type: 'string' }, movement: { type: 'string' }, 'boards-per-round': { type: 'string' }, option: { type: 'string', multiple: true },
      variant: { type: 'string' }, trump: { type: 'string' }, broker: { type: 'string' }, db: { type: 'string' }, speed: { type: 'string' }, seed: { type: 'string' },
      faults: { type: 'string' }, manual: { type: 'string' }, claims: { type: 'string' }, 'http-port': { type: 'string' }, serial: { type: 'string' }, club: { type: 'string' }, session: { type: 'string' },
      json: { type: 'boolean' }, exit: { type: 'boolean' }, 'log-level': { type: 'string' }, 'log-json': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    },
  }, STDIO);
  if (typeof args === 'number') return args;
  const v = args.values;
  const usage = (msg: string): number => {
    process.stderr.write(`tenace session simulate: ${msg}\n${USAGE}`);
    return EX_USAGE;
  };
  const tables = Number(v.tables);
  if (!Number.isInteger(tables) || tables < 1) return usage('--tables must be a whole number of tables, 1 or more');
  if (!v.movement) return usage(`--movement is needed: one of ${Object.keys(MOVEMENTS).join(', ')}`);
  const movement = movementByName(v.movement);
  if (!movement) {
    const near = closest(v.movement, Object.keys(MOVEMENTS));
    return usage(`--movement: no movement "${v.movement}"${near ? `: did you mean "${near}"?` : ''} (tenace movement --list names them)`);
  }
  const boardsPerRound = v['boards-per-round'] === undefined ? undefined : Number(v['boards-per-round']);
  if (boardsPerRound !== undefined && !(Number.isInteger(boardsPerRound) && boardsPerRound > 0)) return usage('--boards-per-round must be a whole number, 1 or more');
  const options: Record<string, string | number> = {};
  for (const o of v.option ?? []) {
    const m = /^([A-Za-z][\w-]*)=(.+)$/.exec(o);
    if (!m) return usage(`--option "${o}": write it as KEY=VALUE, e.g. even=relay`);
    options[m[1]] = /^\d+$/.test(m[2]) ? Number(m[2]) : m[2];
  }
  const variant = v.variant ?? 'duplicate-whist';
  if (!variantNames().includes(variant)) return usage(`--variant: "${variant}" is not a game tenace knows (${variantNames().join(', ')})`);
  const speed = v.speed === undefined ? 10 : v.speed === 'max' ? 'max' : Number(v.speed);
  if (speed !== 'max' && !(speed > 0)) return usage('--speed must be a positive multiple of real play, or "max"');
  const seed = v.seed === undefined ? 1 : Number(v.seed);
  if (!Number.isInteger(seed) || seed < 0) return usage('--seed must be a whole number, 0 or more');
  const turned = getVariant(variant).trump === 'turned';
  // "No trump is turned in Memory Duplicate; one suit being declared trumps for the entire sitting": without --trump,
  // the seed picks the suit.
  const trump = v.trump?.toUpperCase() ?? (movement.name === 'memory-duplicate' && turned ? 'SHDC'[seed % 4] : undefined);
  if (trump !== undefined && !/^[SHDC]$/.test(trump)) return usage(`--trump: "${v.trump}" is not a suit: give S, H, D or C, the suit declared trumps for the sitting`);
  if (trump !== undefined && !turned) return usage(`--trump: ${variant} turns no trump card for a declared suit to replace; leave --trump out`);
  const faults = parseFaults(v.faults ?? '');
  if (typeof faults === 'string') return usage(`--faults: ${faults}`);
  if ((faults.crash ?? 0) > 0 && v.serial === 'loopback') return usage('--faults crash=N: a crashed table is its own process, whose serial lines are pty pairs: leave out --serial loopback');
  if ((faults.crash ?? 0) > 0 && !findSocat()) {
    process.stderr.write('tenace session simulate: --faults crash=N needs socat (apt-get install socat): a crashed table is its own tenace run process, reading its emulated bridge and scanner on pty pairs\n');
    return EX_UNAVAILABLE;
  }
  const httpPort = v['http-port'] === undefined ? 8080 : Number(v['http-port']);
  if (!Number.isInteger(httpPort) || httpPort < 0 || httpPort > 65535) return usage('--http-port must be a TCP port from 0 to 65535 (0 picks a free one)');
  const serial = v.serial ?? 'auto';
  if (serial !== 'auto' && serial !== 'pty' && serial !== 'loopback') return usage('--serial must be auto, pty or loopback');

  const manual = v.manual === undefined ? 0 : Number(v.manual);
  if (!Number.isInteger(manual) || manual < 0 || manual >= tables) return usage(`--manual must be how many of the ${tables} tables are hand-scored, 0 to ${tables - 1} (one table at least reads its cards)`);
  const claimsArg = v.claims === undefined ? undefined : Number(v.claims);
  if (claimsArg !== undefined && !(Number.isInteger(claimsArg) && claimsArg >= 0)) return usage('--claims must be a whole number of claims, 0 or more');

  // SQLite creates the file but not its folder.
  const dbFolder = v.db === undefined ? null : missingSqliteFolder(`sqlite:${v.db}`);
  if (dbFolder !== null) {
    process.stderr.write(`tenace session simulate: --db ${v.db}: the folder ${dbFolder} does not exist: create it (mkdir -p ${dbFolder}) or give --db a file in a folder that exists\n`);
    return EX_CANTCREAT;
  }
  // A port another program holds (often another session's director page) would show that program's page as ours.
  if (httpPort !== 0 && await portTaken(httpPort)) {
    process.stderr.write(`tenace session simulate: port ${httpPort} is already in use (another session's director page?): choose another with --http-port P, or --http-port 0 for a free one\n`);
    return EX_UNAVAILABLE;
  }
  const problem = movement.check({ tables, boardsPerRound, options });
  if (problem) return usage(`--movement ${movement.name}: ${problem}`);
  const schedule = movement.generate({ tables, boardsPerRound, options });
  // The last N tables that play (a Mitchell's phantom N-S leaves its table empty all session).
  const playing = [...new Set(schedule.rounds.flatMap((r) => r.tables.map((t) => t.table)))].sort((a, b) => a - b);
  const handScored = playing.slice(Math.max(0, playing.length - manual));
  // Claims: a sixth of the plays by default, as at a club table where the last tricks are seldom played out.
  const claims = claimsArg ?? Math.floor(schedule.rounds.reduce((n, r) => n + r.tables.reduce((k, t) => k + t.trays.filter((b) => b !== null).length, 0), 0) / 6);
  // A new name per run: a session is a night at the club, and its retained records must not meet another's.
  const session = v.session ?? `sim-${new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}`;
  let plan;
  try {
    plan = planSession({ session, variant, schedule, seed, faults, handScored, claims, ...(trump ? { trump: trump as 'S' | 'H' | 'D' | 'C' } : {}) });
  } catch (e) {
    return usage((e as Error).message);
  }
  // The log goes to stderr: stdout is the standings (JSON with --json), for a pipe. Readable on a terminal.
  const log = consoleLogger({ level: v['log-level'] ?? 'warn', fd: 2, logJson: v['log-json'] });
  const abort = new AbortController();
  let signals = 0;
  const onSignal = (): void => {
    if (++signals > 1) process.exit(130);
    abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const say = (line: string) => { if (!v.json) process.stdout.write(`tenace: ${line}\n`); };
  try {
    const outcome = await runSession({
      plan, club: v.club ?? 'demo', broker: v.broker, db: v.db, speed, httpPort, serial, log, say, signal: abort.signal,
      keepOpen: v.exit ? undefined : async (url) => {
        say(`session scored; the director page stays open at ${url} until Ctrl-C`);
        await new Promise<void>((r) => abort.signal.addEventListener('abort', () => r(), { once: true }));
      },
      onScored: (o) => process.stdout.write(v.json ? `${JSON.stringify({ ...o.standings, session: o.check })}\n` : formatOutcome(o.standings, o.check)),
    });
    const c = outcome.check;
    const missed = c.fouled.filter((f) => !f.found).length + c.wrongTrays.filter((w) => !w.alerted).length + c.revokes.filter((r) => !r.found).length
      + (faults.crash ?? 0) - c.crashes.filter((x) => x.signal === 'SIGKILL').length;
    return missed === 0 && c.verified === c.overplays ? 0 : 1;
  } catch (e) {
    if (abort.signal.aborted) return 130;
    process.stderr.write(`tenace session simulate: ${(e as Error).message}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** sysexits EX_UNAVAILABLE: the port asked for is taken; EX_CANTCREAT: the database cannot be created. */
const EX_UNAVAILABLE = 69;
const EX_CANTCREAT = 73;

/** True when something already listens on 127.0.0.1:port (the director page's host). */
function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'EADDRINUSE'));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(false)));
  });
}

/** `fouled=1,wrong-tray=2,revokes=1,crash=1` → counts; a string is the problem. */
export function parseFaults(spec: string): SessionFaults | string {
  const f: SessionFaults = { fouled: 0, wrongTray: 0, revokes: 0, crash: 0 };
  if (spec.trim() === '') return f;
  for (const part of spec.split(',')) {
    const m = /^\s*(fouled|wrong-tray|revokes|crash)\s*=\s*(\d+)\s*$/.exec(part);
    if (!m) return `"${part}" is not one of fouled=N, wrong-tray=N, revokes=N, crash=N`;
    const n = Number(m[2]);
    if (m[1] === 'fouled') f.fouled = n; else if (m[1] === 'wrong-tray') f.wrongTray = n; else if (m[1] === 'crash') f.crash = n; else f.revokes = n;
  }
  return f;
}

function formatOutcome(r: import('../club/types.js').ScoreReport, c: import('../club/session/runner.js').SessionCheck): string {
  const lines = [`standings (${r.method}${r.averages ? `; averages N-S ${r.averages.NS}, E-W ${r.averages.EW}` : ''}):`];
  for (const p of r.pairs) {
    const vs = p.vsAverage === undefined ? '' : ` ${p.vsAverage > 0 ? '+' : ''}${p.vsAverage}`;
    const pct = p.percent === undefined ? '' : ` ${p.percent.toFixed(2)}%`;
    lines.push(`  ${String(p.rankLabel ?? p.rank).padStart(3)}  ${p.pair.padEnd(6)} ${(p.direction ?? '').padEnd(2)} ${String(p.total).padStart(6)}${vs}${pct}${p.names?.length ? `  ${p.names.join(' & ')}` : ''}`);
  }
  lines.push(`trays verified at ${c.verified} of ${c.overplays} overplays; ${c.plays} plays scored (${c.claims} ended with a claim, ${c.handScored} entered by hand)`);
  for (const f of c.fouled) lines.push(`  fouled tray ${f.board} at table ${f.table}: ${f.found ? `found at its first misplaced card, ${f.card}` : 'NOT found'}`);
  for (const w of c.wrongTrays) lines.push(`  wrong tray ${w.board} scanned at table ${w.table}: ${w.alerted ? 'alerted before any card' : 'NOT alerted'}`);
  for (const x of c.revokes) lines.push(`  renounce in error by ${x.seat} on tray ${x.board} at table ${x.table}: ${x.found ? 'found' : 'NOT found'}`);
  for (const x of c.crashes) lines.push(`  table ${x.table} crashed on tray ${x.board}: its daemon (pid ${x.pid}) killed with ${x.signal} after ${x.afterCard} card events, started again (pid ${x.restartedPid}) on its journal`);
  return `${lines.join('\n')}\n`;
}
