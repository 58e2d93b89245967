// Starts bench/club-watch.ts, the benchmarks' witness in a process of its own, and reads what it saw.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The times the witness saw, in ms on its own clock: each table event at the broker, each result in the standings. */
export interface WatchTimes { events: Record<string, number>; scored: Record<string, number> }

/** A running witness: `stop()` ends it and returns what it saw. */
export interface Watch { pid: number | undefined; stop(): Promise<WatchTimes> }

/** Start the witness on `url` for `club`'s table events and the standings topic; resolves once it is subscribed. */
export async function startWatch(url: string, club: string, standings: string): Promise<Watch> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./club-watch.js', import.meta.url)), url, club, standings], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  const ended = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: string) => { out += d; });
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`the witness exited with ${code}`))));
  });
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('the witness did not subscribe within 10 s')), 10_000);
    const check = () => { if (out.startsWith('ready\n')) { clearTimeout(t); resolve(); } else child.stdout.once('data', check); };
    check();
  });
  return {
    pid: child.pid,
    async stop() {
      child.stdin.end();
      const text = await ended;
      return JSON.parse(text.slice('ready\n'.length)) as WatchTimes;
    },
  };
}

/** The director's part of each play: from its last card's event at the broker to the standings holding its result. */
export function directorLatencies(w: WatchTimes, plays: readonly { table: number; board: number; lastCardSeq?: number }[]): number[] {
  const out: number[] = [];
  for (const p of plays) {
    const at = p.lastCardSeq === undefined ? undefined : w.events[`${p.table}:${p.lastCardSeq}`];
    const scored = w.scored[`${p.board}:${p.table}`];
    if (at !== undefined && scored !== undefined) out.push(scored - at);
  }
  return out.sort((a, b) => a - b);
}

/** One burst of plays (a slot, which every table plays at once): their last cards reached the broker over `arrivalMs`,
 * and all their results were in the standings `drainMs` after the first of those cards. */
export interface Burst { key: string; results: number; arrivalMs: number; drainMs: number }

/** Group the plays by round and slot and say how long each group's last cards took to arrive and to be scored. */
export function bursts(w: WatchTimes, plays: readonly { table: number; board: number; lastCardSeq?: number; round: number; slot: number }[]): Burst[] {
  const by = new Map<string, { first: number; lastEvent: number; lastScored: number; n: number }>();
  for (const p of plays) {
    const at = p.lastCardSeq === undefined ? undefined : w.events[`${p.table}:${p.lastCardSeq}`];
    const scored = w.scored[`${p.board}:${p.table}`];
    if (at === undefined || scored === undefined) continue;
    const key = `${p.round}:${p.slot}`;
    const b = by.get(key) ?? { first: Infinity, lastEvent: -Infinity, lastScored: -Infinity, n: 0 };
    b.first = Math.min(b.first, at);
    b.lastEvent = Math.max(b.lastEvent, at);
    b.lastScored = Math.max(b.lastScored, scored);
    b.n++;
    by.set(key, b);
  }
  return [...by].map(([key, b]) => ({ key, results: b.n, arrivalMs: b.lastEvent - b.first, drainMs: b.lastScored - b.first }));
}
