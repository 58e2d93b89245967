// The benchmarks' own arithmetic: a wrong burst or CPU share would be quoted in bench/README.md as a measurement.
import { describe, expect, it } from 'vitest';
import { cpuLines, readCpu } from '../../bench/cpu-parts.js';
import { bursts } from '../../bench/watch.js';

describe('bench figures', () => {
  it('bursts: groups the plays by round and slot, from the first last card to the last result in the standings', () => {
    const w = {
      events: { '1:40': 1000, '2:40': 1030, '1:80': 5000, '2:80': 5010 },
      scored: { '1:1': 1100, '2:2': 1250, '3:1': 5020 },
    };
    const plays = [
      { table: 1, board: 1, round: 1, slot: 0, lastCardSeq: 40 },
      { table: 2, board: 2, round: 1, slot: 0, lastCardSeq: 40 },
      { table: 1, board: 3, round: 2, slot: 0, lastCardSeq: 80 },
      // Not yet in the standings: left out, not counted as scored.
      { table: 2, board: 4, round: 2, slot: 0, lastCardSeq: 80 },
    ];
    expect(bursts(w, plays)).toEqual([
      { key: '1:0', results: 2, arrivalMs: 30, drainMs: 250 },
      { key: '2:0', results: 1, arrivalMs: 0, drainMs: 20 },
    ]);
  });

  it('cpuLines: each part\'s seconds between two readings, and what no part accounts for', () => {
    const a = { at: 0, parts: new Map([['director', 1], ['broker', 2]]), busy: 10, total: 100 };
    const b = { at: 10_000, parts: new Map([['director', 4], ['broker', 3]]), busy: 20, total: 120 };
    const lines = cpuLines(a, b);
    expect(lines[0]).toMatch(/^over 10\.0 s: 10\.0 s of CPU busy on \d+ cores, 1\.00 cores on average/);
    expect(lines[1]).toBe('  director: 3.0 s (30% of the busy time, 0.30 cores)');
    expect(lines[2]).toBe('  broker: 1.0 s (10% of the busy time, 0.10 cores)');
    expect(lines[3]).toBe('  everything else on the machine (the kernel, other services): 6.0 s (60%)');
  });

  it('readCpu: this process\'s CPU grows with work it does, and the machine\'s busy time is at least it', () => {
    const parts = [{ name: 'me', pids: [process.pid] }];
    const a = readCpu(parts);
    // Work until the process itself has used 150 ms of CPU (not wall time: a loaded machine would give less).
    let x = 0;
    const c0 = process.cpuUsage();
    while (process.cpuUsage(c0).user < 150_000) x += Math.sqrt(x + 1);
    const b = readCpu(parts);
    expect(x).toBeGreaterThan(0);
    expect(b.parts.get('me')! - a.parts.get('me')!).toBeGreaterThan(0.1);
    expect(b.busy - a.busy).toBeGreaterThanOrEqual(b.parts.get('me')! - a.parts.get('me')! - 0.02);
  });
});
