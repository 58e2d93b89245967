// `tenace enrol --deck NAME --port PATH [--out FILE] [--order bridge|suit] [--reader N] [--other FILE...] [--wait]`
//
// Walks a person through tapping the 52 cards of one pack on a reader, in a stated order, and
// writes the deck file (hardware/decks.md) atomically after every accepted card. Re-running the
// same command resumes from the file. Tags already in this deck or in an `--other` deck are
// refused with a message. Type `undo` (forget the last card) or `quit` on stdin.
// Exit code: 0 when the deck is complete, 1 when stopped early (the partial file is kept), 66 when the port cannot be
// opened (nobody is asked to tap a card on a reader that is not there), unless --wait.
import { type CliIo, STDIO, catchStopSignals, parseCommand, usageError } from './args.js';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { type BindingInterface, BridgeDriver, type Logger } from '../hardware/bridge-driver.js';
import { type DeckFile, DeckSet, loadDeckFile, loadDecks, writeDeckFile } from '../hardware/deck.js';
import { ENROL_ORDERS, Enrolment, type EnrolOrder } from '../hardware/enrol.js';
import { EX_NOINPUT, textLogger } from './listen.js';
import { deviceProblem } from '../config/devices.js';

export interface EnrolDeps {
  io?: CliIo;
  binding?: BindingInterface;
  /** Commands (`undo`, `quit`); default process.stdin. With `binding`, the port is not looked for on the file system. */
  input?: Readable;
  signals?: boolean;
  onDriver?: (driver: BridgeDriver) => void;
}

const USAGE = `usage: tenace enrol --deck NAME --port PATH [--out FILE] [--order bridge|suit] [--reader N] [--other FILE...]
  --out     the deck file (default NAME.deck.json); an existing file of the same deck is resumed
  --order   bridge: spades, hearts, diamonds, clubs, ace down to two (default)
            suit:   clubs, diamonds, hearts, spades, two up to ace
  --reader  accept taps on this reader only (default: any reader)
  --other   deck files of the other packs: their tags are refused
  --wait    wait for the bridge's port to appear instead of exiting 66 when it cannot be opened
`;

export async function enrolCommand(argv: string[], deps: EnrolDeps = {}): Promise<number> {
  const io = deps.io ?? STDIO;
  const args = parseCommand('enrol', USAGE, {
      args: argv,
      options: {
        deck: { type: 'string' },
        port: { type: 'string', short: 'p' },
        out: { type: 'string', short: 'o' },
        order: { type: 'string' },
        reader: { type: 'string' },
        other: { type: 'string', multiple: true },
        wait: { type: 'boolean' },
        verbose: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
    }, io);
  if (typeof args === 'number') return args;
  const v = args.values;
  if (!v.deck || !v.port) return usageError(io, 'enrol', '--deck and --port are required', USAGE);
  const order = (v.order ?? 'bridge') as EnrolOrder;
  if (!ENROL_ORDERS.includes(order)) return usageError(io, 'enrol', `--order must be bridge or suit (got "${v.order}")`);
  let reader: number | undefined;
  if (v.reader !== undefined) {
    if (!/^[0-7]$/.test(v.reader)) return usageError(io, 'enrol', `--reader must be 0..7 (got "${v.reader}")`);
    reader = Number(v.reader);
  }
  const out = v.out ?? `${v.deck}.deck.json`;
  let enrol: Enrolment;
  try {
    const others: DeckSet = loadDecks(v.other ?? []);
    let resume: DeckFile | undefined;
    if (existsSync(out)) resume = loadDeckFile(out);
    enrol = new Enrolment({ deck: v.deck, order, resume, others });
  } catch (e) {
    io.err(`tenace enrol: ${(e as Error).message}\n`);
    return 65;
  }
  // Checked before anyone is asked to tap a card.
  const portProblem = deps.binding ? undefined : deviceProblem(v.port, 'bridge');
  if (portProblem && !v.wait) {
    io.err(`tenace enrol: --port: ${portProblem}; or add --wait to wait for it\n`);
    return EX_NOINPUT;
  }
  const say = (s: string) => io.out(`${s}\n`);
  say(
    enrol.done > 0
      ? `Resuming deck ${enrol.deck} from ${out}: ${enrol.progress()} already enrolled.`
      : `Enrolling deck ${enrol.deck} into ${out}. Tap each card on ${reader === undefined ? 'a reader' : `reader ${reader}`} when asked, then take it away.`,
  );
  say(`Type "undo" to forget the last card, "quit" to stop; the file is saved after every card.`);
  if (enrol.isComplete()) {
    say(enrol.prompt());
    return 0;
  }
  if (portProblem) say(`Waiting for the bridge: ${portProblem}`);
  say(`${enrol.progress()}  ${enrol.prompt()}`);

  const log: Logger = textLogger(io.err, v.verbose ? 'debug' : 'warn', 'tenace enrol');
  const driver = new BridgeDriver({ path: v.port, binding: deps.binding, decks: new DeckSet(), logger: log });
  let finish!: (why: string) => void;
  const done = new Promise<string>((res) => (finish = res));
  let failed: string | undefined;

  const save = (): boolean => {
    try {
      writeDeckFile(out, enrol.toDeckFile());
      return true;
    } catch (e) {
      failed = `cannot write ${out}: ${(e as Error).message}`;
      finish(failed);
      return false;
    }
  };

  driver.on('presence', (c) => {
    if (c.kind !== 'arrive') return;
    if (reader !== undefined && c.reader !== reader) return;
    if (c.late) {
      say(`A tag (${c.uid}) was already lying on reader ${c.reader}: take it away; it was not enrolled.`);
      return;
    }
    const r = enrol.tap(c.uid);
    if (!r.ok) {
      say(`✗ ${r.message}`);
      return;
    }
    if (!save()) return;
    say(`✓ ${r.card} (${r.done}/${r.total})`);
    if (r.complete) {
      say(enrol.prompt());
      finish('complete');
    } else say(`${enrol.progress()}  ${enrol.prompt()}`);
  });
  driver.on('bridge-status', (s) => {
    if (s.status === 'online') say(`Bridge ready${s.detail ? ` (${s.detail})` : ''}.`);
    else if (s.status === 'disconnected' || s.status === 'offline') say(`Bridge ${s.status}: waiting for it to come back...`);
    else if (s.status === 'incompatible') {
      failed = s.detail ?? 'incompatible bridge';
      finish(failed);
    }
  });

  const input = deps.input ?? process.stdin;
  const rl = createInterface({ input, terminal: false });
  rl.on('line', (line) => {
    const cmd = line.trim().toLowerCase();
    if (cmd === 'undo' || cmd === 'u') {
      const card = enrol.undo();
      if (card === undefined) say('Nothing to undo.');
      else if (save()) say(`Forgot ${card}. ${enrol.progress()}  ${enrol.prompt()}`);
    } else if (cmd === 'quit' || cmd === 'q' || cmd === 'exit') finish('quit');
    else if (cmd !== '') say(`Commands: undo, quit. ${enrol.progress()}  ${enrol.prompt()}`);
  });
  const releaseSignals = catchStopSignals(deps.signals !== false, (sig) => finish(sig));
  deps.onDriver?.(driver);
  driver.start();
  await done;
  rl.close();
  releaseSignals();
  await driver.stop();
  if (failed) {
    io.err(`tenace enrol: ${failed}\n`);
    return 74;
  }
  if (!enrol.isComplete()) {
    say(`Stopped at ${enrol.progress()}. Run the same command again to resume.`);
    return 1;
  }
  return 0;
}
