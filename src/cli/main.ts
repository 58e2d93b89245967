// The `tenace` command: one file per subcommand, dispatched here.
// First: `tenace run` tunes V8 for memory before the other modules load (see lean.ts).
// The rest is imported when needed: `tenace replay FILE --json` starts with its fast path alone (issue 20).
import './lean.js';

type Command = (argv: string[]) => number | Promise<number>;

// Each command is loaded when it is run: `tenace run` on a Pi should not pay for the emulator or the simulator.
const COMMANDS: Record<string, () => Promise<Command>> = {
  replay: async () => (await import('./replay-fast.js')).replayFastCommand,
  analyse: async () => (await import('./analyse.js')).analyseCommand,
  run: async () => (await import('./run.js')).runCommand,
  simulate: async () => (await import('./simulate.js')).simulateCommand,
  listen: async () => (await import('./listen.js')).listenCommand,
  emulate: async () => (await import('./emulate.js')).emulateCommand,
  deck: async () => (await import('./deck.js')).deckCommand,
  enrol: async () => (await import('./enrol.js')).enrolCommand,
  'check-config': async () => (await import('./check-config.js')).checkConfigCommand,
  movement: async () => (await import('./movement.js')).movementCommand,
  score: async () => (await import('./score.js')).scoreCommand,
  trays: async () => (await import('./trays.js')).traysCommand,
  // The director keeps its young generation small as the table daemon does, and its old generation tighter
  // (../club/director/heap.ts): left to grow, the young generation held 32 MB of an idle 30-table director's 98 MB
  // (issue 18). The flags are set before director.js is imported, because loading its 400 modules is garbage enough
  // to grow the young generation before any of them is evaluated.
  director: async () => {
    await import('../club/director/heap.js');
    return (await import('./director.js')).directorCommand;
  },
  session: async () => (await import('./session.js')).sessionCommand,
};

const USAGE = `usage: tenace <command> [options]     (every command answers --help and --version; so does tenace)

commands:
  run --config FILE                       the table daemon: bridges, scanner, journal, rules engine, MQTT feed, table view
  simulate [--broker URL] [--club C] [--table T] [--play FILE] [--speed X|max] [--journal DIR] [--http-port P] [--exit] [--broker-wait S]
                                          an emulated table and the real daemon; embedded broker and table view by default
  replay FILE [--json | --pbn] [--variant NAME]
                                          replay a table log (.ndjson), PBN or LIN file (- for stdin) through the rules engine
  analyse FILE [--json | --pbn] [--no-play]
                                          double dummy for each deal of a table log, PBN or LIN file: the table, par, each card's cost
  listen --port PATH --deck FILE [--deck FILE2] --log OUT.ndjson [--bridge ID] [--map r0=N,r1=E,r2=S,r3=W] [--idle-exit MS] [--wait]
                                          read a firmware bridge, append the TableEvents it sees (ndjson)
  emulate (--port PATH | --pty DIR) --deck FILE --play LOG [--speed X|max] [--faults SPEC] [--map r0=N,...]
                                          play a log onto a serial port as the firmware bridge would
  deck --virtual --out FILE [--id NAME]   write a deterministic deck for emulation (deck --check FILE... checks decks)
  enrol --deck NAME --port PATH [--out FILE] [--order bridge|suit] [--wait]
                                          tap a pack's 52 cards to make its deck file
  check-config FILE [--print] [--env] [--skip-files] | check-config --schema
                                          validate a daemon config: exit 0, or 78 with each problem and its fix

the club (docs/club.md):
  movement NAME [--tables N] [--boards-per-round B] [--option K=V]... [--json] | movement --list
                                          print a movement's schedule (seed movements, mitchell, howell)
  score TRAVELLERS [--method average|matches|individuals|matchpoints|cross-imps|butler] [--matches teams|pairs] [--json]
                                          score a travellers file (NDJSON) or a PBN file with results (- for stdin)
  trays import FILE.pbn --club C --session S [--broker URL] [--replace] [--dry-run] [--json]
                                          publish a dealing machine's hand records as the session's tray records
  trays show --club C --session S [--board N] [--broker URL] [--json]
                                          read the session's tray records back from the broker
  trays doctor (RECORD.pbn TABLE.pbn --board N | --record HANDS --table HANDS) [--tables T]
                                          the moves that restore a fouled tray, and what the laws give
  director --config club.yaml             the director service: tray records, movement, results, standings, director page
  session simulate --tables N --movement NAME [--boards-per-round B] [--broker URL] [--db FILE] [--speed X] [--seed S] [--faults ...] [--json] [--exit]
                                          a whole club session: emulated tables through the real table path, and the director
`;

/** Run the CLI with the given arguments; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  // replay-fast.ts writes with writeSync and sets this up itself when it hands over to replay.ts.
  if (cmd !== 'replay') (await import('./args.js')).endQuietlyOnBrokenPipe();
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(USAGE);
    return cmd ? 0 : 64;
  }
  if (cmd === '--version' || cmd === '-V' || cmd === 'version') {
    process.stdout.write(`tenace ${(await import('./args.js')).tenaceVersion()}\n`);
    return 0;
  }
  const load = COMMANDS[cmd];
  if (!load) {
    const { closest } = await import('../config/suggest.js');
    const near = closest(cmd.replace(/^-+/, ''), [...Object.keys(COMMANDS), 'help', 'version']);
    process.stderr.write(`tenace: unknown command "${cmd}"${near ? `: did you mean "${near}"?` : ''}\n${USAGE}`);
    return 64;
  }
  return (await load())(rest);
}

process.exitCode = await main(process.argv.slice(2));
