// Where the machine's CPU went while a benchmark ran: each named part's processes (by pid, or every process of a
// command name such as `postgres`) read from /proc at two moments, against the whole machine's busy time from
// /proc/stat. On two shared cores this says whether a latency goal waits for the code under test or for a core.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';

/** A part of the set-up: its pids, and command names whose every process counts as it (PostgreSQL's backends). */
export interface CpuPart { name: string; pids: readonly (number | undefined)[]; comms?: readonly string[] }

/** CPU seconds per part at one moment, and the machine's busy and total seconds. */
export interface CpuReading { at: number; parts: Map<string, number>; busy: number; total: number }

let ticksPerSecond: number | undefined;
function hz(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** utime + stime of one process in ticks, and its command name; null once it has gone. */
function procTicks(pid: number): { ticks: number; comm: string } | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = s.lastIndexOf(')');
    const comm = s.slice(s.indexOf('(') + 1, close);
    const f = s.slice(close + 2).split(' ');
    // Fields after the command: state is [0], utime [11], stime [12].
    return { ticks: Number(f[11]) + Number(f[12]), comm };
  } catch {
    return null;
  }
}

/** Read every part's CPU and the machine's, now. */
export function readCpu(parts: readonly CpuPart[]): CpuReading {
  const out = new Map<string, number>();
  const byComm = new Map<string, string>();
  for (const p of parts) {
    let t = 0;
    for (const pid of p.pids) if (pid !== undefined) t += procTicks(pid)?.ticks ?? 0;
    out.set(p.name, t);
    for (const c of p.comms ?? []) byComm.set(c, p.name);
  }
  if (byComm.size > 0) {
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      const r = procTicks(Number(d));
      const name = r && byComm.get(r.comm);
      if (r && name) out.set(name, (out.get(name) ?? 0) + r.ticks);
    }
  }
  // /proc/stat's first line: user nice system idle iowait irq softirq steal ..., in ticks, over every core.
  const f = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const idle = f[3] + f[4];
  const total = f.reduce((a, b) => a + b, 0);
  const h = hz();
  for (const [k, v] of out) out.set(k, v / h);
  return { at: Date.now(), parts: out, busy: (total - idle) / h, total: total / h };
}

/** The CPU each part used between two readings, as lines for a report: seconds, share of the busy time, cores. */
export function cpuLines(a: CpuReading, b: CpuReading): string[] {
  const wall = (b.at - a.at) / 1000;
  const busy = b.busy - a.busy;
  const cores = cpus().length;
  const lines = [`over ${wall.toFixed(1)} s: ${busy.toFixed(1)} s of CPU busy on ${cores} cores, ${(busy / wall).toFixed(2)} cores on average (${Math.round(100 * busy / (wall * cores))}% of the machine)`];
  let named = 0;
  for (const [name, end] of b.parts) {
    // A process that exited between the readings counts as 0 at the end: its time is left to "everything else".
    const used = Math.max(0, end - (a.parts.get(name) ?? 0));
    named += used;
    lines.push(`  ${name}: ${used.toFixed(1)} s (${Math.round(100 * used / Math.max(busy, 1e-9))}% of the busy time, ${(used / wall).toFixed(2)} cores)`);
  }
  const rest = Math.max(0, busy - named);
  lines.push(`  everything else on the machine (the kernel, other services): ${rest.toFixed(1)} s (${Math.round(100 * rest / Math.max(busy, 1e-9))}%)`);
  return lines;
}
