// `npm run bench [-- NAME... --deals N --rounds R --warmup W --seed S --part a|bc --tables T --speed X]`: runs the
// registered benchmarks and prints their tables. New benchmarks go in their own module (like bench/rules.ts) and get
// one entry in BENCHES.
import { type BenchReport, printReport } from './harness.js';
import { RULES_DEFAULTS, benchRules } from './rules.js';
import { DRIVER_DEFAULTS, benchDriver } from './driver.js';
import { DAEMON_DEFAULTS, benchDaemon } from './daemon.js';
import { CLUB_DEFAULTS, benchClub } from './club.js';
import { REPLAY_DEFAULTS, benchReplay } from './replay.js';
import { CHAMPIONSHIP_DEFAULTS, benchChampionship } from './championship.js';
import { DD_DEFAULTS, benchDd } from './dd.js';

interface CliOptions { names: string[]; deals?: number; rounds?: number; warmup?: number; seed?: number; part?: string; tables?: number; speed?: number }

const BENCHES: Record<string, (cli: CliOptions) => BenchReport> = {
  rules: (cli) => benchRules({
    ...RULES_DEFAULTS,
    deals: cli.deals ?? RULES_DEFAULTS.deals,
    rounds: cli.rounds ?? RULES_DEFAULTS.rounds,
    warmup: cli.warmup ?? RULES_DEFAULTS.warmup,
    seed: cli.seed ?? RULES_DEFAULTS.seed,
  }),
  driver: (cli) => benchDriver({
    ...DRIVER_DEFAULTS,
    deals: cli.deals ?? DRIVER_DEFAULTS.deals,
    rounds: cli.rounds ?? DRIVER_DEFAULTS.rounds,
    warmup: cli.warmup ?? DRIVER_DEFAULTS.warmup,
    seed: cli.seed ?? DRIVER_DEFAULTS.seed,
  }),
  daemon: (cli) => benchDaemon({ ...DAEMON_DEFAULTS, seed: cli.seed ?? DAEMON_DEFAULTS.seed, parts: cli.part ?? DAEMON_DEFAULTS.parts }),
  club: (cli) => benchClub({ ...CLUB_DEFAULTS, seed: cli.seed ?? CLUB_DEFAULTS.seed, rounds: cli.rounds ?? CLUB_DEFAULTS.rounds }),
  replay: (cli) => benchReplay({ ...REPLAY_DEFAULTS, rounds: cli.rounds ?? REPLAY_DEFAULTS.rounds, warmup: cli.warmup ?? REPLAY_DEFAULTS.warmup }),
  championship: (cli) => benchChampionship({
    ...CHAMPIONSHIP_DEFAULTS,
    seed: cli.seed ?? CHAMPIONSHIP_DEFAULTS.seed,
    rounds: cli.rounds ?? CHAMPIONSHIP_DEFAULTS.rounds,
    tables: cli.tables ?? CHAMPIONSHIP_DEFAULTS.tables,
    speed: cli.speed ?? CHAMPIONSHIP_DEFAULTS.speed,
  }),
  dd: (cli) => benchDd({ deals: cli.deals ?? DD_DEFAULTS.deals, rounds: cli.rounds ?? DD_DEFAULTS.rounds }),
};

/** Parse the command line: benchmark names, then numeric options as `--name value`. */
export function parseArgs(argv: readonly string[]): CliOptions {
  const cli: CliOptions = { names: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const key = a.slice(2);
      if (key === 'part') {
        // daemon only: "a" (latency), "b" or "c" (RSS and start time, which share their child daemons), or "abc".
        const part = argv[++i] ?? '';
        if (!/^[abc]+$/.test(part)) throw new Error(`--part needs letters among a, b, c (got ${JSON.stringify(part)})`);
        cli.part = part;
        continue;
      }
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 0) throw new Error(`${a} needs a non-negative integer (got ${JSON.stringify(argv[i])})`);
      if (key === 'deals' || key === 'rounds' || key === 'warmup' || key === 'seed' || key === 'tables' || key === 'speed') cli[key] = v;
      else throw new Error(`unknown option ${a}: use --deals, --rounds, --warmup, --seed, --part (daemon), or --tables and --speed (championship)`);
    } else {
      if (!(a in BENCHES)) throw new Error(`unknown benchmark "${a}": use one of ${Object.keys(BENCHES).join(', ')}`);
      cli.names.push(a);
    }
  }
  if (cli.names.length === 0) cli.names = Object.keys(BENCHES);
  return cli;
}

function main(): void {
  const cli = parseArgs(process.argv.slice(2));
  let failed = false;
  for (const name of cli.names) {
    const rep = BENCHES[name](cli);
    printReport(rep);
    if (rep.sanity.some((s) => !s.ok)) failed = true;
  }
  // Throughput of an engine that disagrees about validity is meaningless: make that visible to scripts too.
  if (failed) {
    console.log('\nsanity checks failed: the figures above compare engines that do not agree on the corpus');
    process.exitCode = 1;
  }
}

main();
