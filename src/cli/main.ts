// The `tenace` command: one file per subcommand, dispatched here.
import { checkConfigCommand } from './check-config.js';
import { deckCommand } from './deck.js';
import { emulateCommand } from './emulate.js';
import { enrolCommand } from './enrol.js';
import { listenCommand } from './listen.js';
import { replayCommand } from './replay.js';
import { runCommand } from './run.js';
import { simulateCommand } from './simulate.js';

const COMMANDS: Record<string, (argv: string[]) => number | Promise<number>> = {
  replay: replayCommand,
  run: runCommand,
  simulate: simulateCommand,
  listen: listenCommand,
  emulate: emulateCommand,
  deck: deckCommand,
  enrol: enrolCommand,
  'check-config': checkConfigCommand,
};

const USAGE = `usage: tenace <command> [options]

commands:
  run --config FILE                       the table daemon: bridges, scanner, journal, rules engine, MQTT feed, table view
  simulate [--broker URL] [--club C] [--table T] [--play FILE] [--speed X|max] [--journal DIR] [--http-port P] [--exit]
                                          an emulated table and the real daemon; embedded broker and table view by default
  replay FILE [--json | --pbn] [--variant NAME]
                                          replay a table log (.ndjson), PBN or LIN file through the rules engine
  listen --port PATH --deck FILE [--deck FILE2] --log OUT.ndjson [--bridge ID] [--map r0=N,r1=E,r2=S,r3=W] [--idle-exit MS]
                                          read a firmware bridge, append the TableEvents it sees (ndjson)
  emulate (--port PATH | --pty DIR) --deck FILE --play LOG [--speed X|max] [--faults SPEC] [--map r0=N,...]
                                          play a log onto a serial port as the firmware bridge would
  deck --virtual --out FILE [--id NAME]   write a deterministic deck for emulation (deck --check FILE... checks decks)
  enrol --deck NAME --port PATH [--out FILE] [--order bridge|suit]
                                          tap a pack's 52 cards to make its deck file
  check-config FILE [--print] [--env] [--skip-files]
                                          validate a daemon config: exit 0, or 78 with each problem and its fix
`;

/** Run the CLI with the given arguments; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(USAGE);
    return cmd ? 0 : 64;
  }
  const run = COMMANDS[cmd];
  if (!run) {
    process.stderr.write(`tenace: unknown command "${cmd}"\n${USAGE}`);
    return 64;
  }
  return run(rest);
}

process.exitCode = await main(process.argv.slice(2));
