// What /proc says of a process the daemon benchmark started: its memory (part (b)) and the CPU time it used.
import { readFileSync } from 'node:fs';

/** Linux's USER_HZ, the unit of /proc/<pid>/stat's times: 100 on every architecture Linux ships. */
const CLOCK_TICKS = 100;

/** VmRSS and VmHWM (the peak) of a process, kB, from /proc/<pid>/status. */
export function procStatus(pid: number): { rss: number; hwm: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** CPU time (user + system) a process has used so far, ms: fields 14 and 15 of /proc/<pid>/stat, in clock ticks. */
export function procCpuMs(pid: number): number {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis are plain.
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS;
}
