// Child process for the crash test: appends events as fast as it can and prints "ack <event JSON>" only after each
// append has resolved (so after fdatasync). The parent SIGKILLs it at random moments and checks that every
// acknowledged seq survived. It waits for "go" on stdin so that the parent can start it ahead of time, and its
// node + tsx start-up overlaps the previous child's run.
//   node --import tsx test/journal/crash-child.ts DIR always|group     (the test runs an esbuild bundle of this file)
import { once } from 'node:events';
import { writeSync } from 'node:fs';
import { Journal } from '../../src/journal/journal.js';

const [dir, mode] = process.argv.slice(2);
const SEATS = ['N', 'E', 'S', 'W'] as const;
const CARDS = ['SA', 'HK', 'DQ', 'CJ', 'ST', 'H9', 'D8', 'C7', 'S6', 'H5', 'D4', 'C3', 'S2'];

// Synchronous writes to the pipe: a line is in the parent's hands the moment this returns, before any kill.
const say = (s: string) => writeSync(1, s + '\n');

async function main(): Promise<void> {
  say('ready');
  await once(process.stdin, 'data');
  const journal = await Journal.open(dir, { fsync: mode === 'group' ? 'group' : 'always', groupCommitMs: 2 });
  say(`open ${journal.lastSeq}`);
  for (let i = 0; ; ) {
    // Several appends in flight at once, so that group commit batches them and 'always' queues them.
    const inFlight = [];
    for (let k = 0; k <= i % 4; k++, i++) {
      const p = journal.append({ type: i % 2 ? 'lift' : 'place', seat: SEATS[i % 4], card: CARDS[i % CARDS.length] });
      inFlight.push(p.then((ev) => say(`ack ${JSON.stringify(ev)}`)));
    }
    await Promise.all(inFlight);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
