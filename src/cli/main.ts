// The `tenace` command: one file per subcommand, dispatched here.
import { replayCommand } from './replay.js';

const COMMANDS: Record<string, (argv: string[]) => number | Promise<number>> = {
  replay: replayCommand,
};

const USAGE = `usage: tenace <command> [options]

commands:
  replay FILE [--json] [--variant NAME]   replay a table log (.ndjson), PBN or LIN file through the rules engine
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
