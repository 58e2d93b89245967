// `tenace check-config FILE [--print] [--env] [--skip-files] [--schema]`: validate a daemon config without running
// anything. A bridge or scanner port that is not there is a warning (the daemon waits for it), not an error.
// Exit codes follow sysexits.h, as systemd and `tenace run` do: 0 valid, 64 usage, 78 (EX_CONFIG) bad config.
import { type CliIo, EX_USAGE, STDIO, parseCommand } from './args.js';
import { checkConfigDevices, checkConfigFiles, formatConfigErrors, loadConfig } from '../config/load.js';
import { publishedSchemaText } from '../config/json-schema.js';
import { envOverrides } from '../config/env.js';
import type { TenaceConfig } from '../config/schema.js';
import { probeDds } from '../dd/probe.js';


export const EX_CONFIG = 78;

const USAGE = `usage: tenace check-config FILE [--print] [--env] [--skip-files] [--schema]
  FILE          the daemon's YAML config (TENACE_* environment overrides apply, as for tenace run)
  --print       print the effective config as JSON, defaults filled in, passwords hidden
  --env         list the TENACE_* environment overrides and exit
  --skip-files  do not check that the TLS, password and deck files and the serial ports exist (checking on another machine)
  --schema      print the config's JSON Schema (config/tenace.schema.json) for editors, and exit
`;


/** One line saying what the config sets up, for a person checking that it is the config they meant. */
export function describeConfig(c: TenaceConfig): string {
  const readers = c.hardware.bridges.flatMap((b) => b.readers);
  const seats = [...new Set(readers.map((r) => r.seat))].join(' ');
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  const scanner = c.hardware.scanner.mode === 'none' ? 'no scanner'
    : c.hardware.scanner.mode === 'serial' ? `scanner on ${c.hardware.scanner.port}`
      : c.hardware.scanner.port !== undefined ? `HID scanner on ${c.hardware.scanner.port}`
        : `HID scanner ${hex(c.hardware.scanner.vendorId)}:${hex(c.hardware.scanner.productId)}`;
  return [
    `ok: club ${c.club.id} table ${c.table.id}`,
    `${plural(c.hardware.bridges.length, 'bridge')} (${plural(readers.length, 'reader')}${seats ? `: ${seats}` : ''})`,
    scanner,
    plural(c.hardware.decks.length, 'deck'),
    `${c.variant}`,
    `mqtt ${c.mqtt.url} under ${c.mqtt.baseTopic}/${c.club.id}/${c.table.id}/`,
    `journal ${c.journal.dir} (fsync ${c.journal.fsync}${c.journal.fsync === 'group' ? ` ${c.journal.groupCommitMs} ms` : ''})`,
    `embargo ${c.feed.embargo}`,
    `http ${c.http.host}:${c.http.port}`,
  ].join(', ');
}

function hex(n: number | undefined): string {
  return n === undefined ? '?' : n.toString(16).padStart(4, '0');
}

/** The config with secrets replaced, safe to print or log. */
export function redactConfig(c: TenaceConfig): TenaceConfig {
  const copy = structuredClone(c);
  if (copy.mqtt.password !== undefined) copy.mqtt.password = '[redacted]';
  return copy;
}

/** Run `tenace check-config`; returns the exit code (0 valid, 64 usage, 78 invalid). */
export function checkConfigCommand(argv: string[], io: CliIo = STDIO, env: Record<string, string | undefined> = process.env): number {
  const args = parseCommand('check-config', USAGE, {
      args: argv,
      allowPositionals: true,
      options: {
        print: { type: 'boolean' }, env: { type: 'boolean' }, 'skip-files': { type: 'boolean' }, schema: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }, io);
  if (typeof args === 'number') return args;
  if (args.values.schema) {
    io.out(publishedSchemaText());
    return 0;
  }
  if (args.values.env) {
    const rows = envOverrides();
    const width = Math.max(...rows.map((r) => r.name.length));
    io.out(rows.map((r) => `${r.name.padEnd(width)}  ${r.path.join('.')}: ${r.description}`).join('\n') + '\n');
    return 0;
  }
  const file = args.positionals[0];
  if (!file || args.positionals.length > 1) {
    io.err(USAGE);
    return EX_USAGE;
  }
  const r = loadConfig(file, env);
  for (const w of r.warnings) io.err(`warning: ${formatConfigErrors([w], file)}`);
  if (!r.ok) {
    io.err(formatConfigErrors(r.errors, file));
    io.err(`${r.errors.length} problem${r.errors.length === 1 ? '' : 's'}: tenace run would refuse this config (exit ${EX_CONFIG})\n`);
    return EX_CONFIG;
  }
  const fileErrors = args.values['skip-files'] ? [] : checkConfigFiles(r.config);
  if (fileErrors.length > 0) {
    io.err(formatConfigErrors(fileErrors, file));
    return EX_CONFIG;
  }
  if (!args.values['skip-files']) for (const w of checkConfigDevices(r.config)) io.err(`warning: ${formatConfigErrors([w], file)}`);
  if (args.values.print) io.out(`${JSON.stringify(redactConfig(r.config), null, 2)}\n`);
  io.out(`${describeConfig(r.config)}\n`);
  // Not a config problem: the table runs without it, and this says how to turn it on.
  const dd = probeDds(env);
  io.out(dd.on ? `double-dummy analysis: on (DDS ${dd.version})\n` : `${dd.reason}\n`);
  if (r.config.feed.analysis) {
    io.out(dd.on
      ? 'feed.analysis: the live double-dummy analysis goes to <table>/analysis once the embargo lets each deal out (vugraph accounts read it: mosquitto/add-user.sh vugraph NAME)\n'
      : 'feed.analysis: set, but without libdds0 the table publishes only that analysis is off, and its view says so\n');
  }
  return 0;
}
