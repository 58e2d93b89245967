// src/cli/lean.ts: V8 tuned for memory for `tenace run` alone; replay, analyse and the simulators keep TurboFan.
import { describe, expect, it } from 'vitest';
import { DAEMON_LEAN_FLAGS, isDaemonCommand } from '../../src/cli/lean.js';
import { runCli } from './spawn-cli.js';

describe('the daemon tuned for memory', () => {
  it('is chosen by the command, argv[2], as main.ts reads it', () => {
    expect(isDaemonCommand(['node', '/opt/tenace/bin/tenace.mjs', 'run', '--config', 'x.yaml'])).toBe(true);
    expect(isDaemonCommand(['node', 'main.js', 'replay', 'run'])).toBe(false);
    expect(isDaemonCommand(['node', 'main.js', 'simulate'])).toBe(false);
    expect(isDaemonCommand(['node', 'main.js'])).toBe(false);
  });

  it('does not turn the JIT off: --jitless set at run time crashes the process once WebAssembly is used', () => {
    expect(DAEMON_LEAN_FLAGS.split(' ')).toEqual(['--optimize-for-size', '--no-opt', '--semi-space-growth-factor=1']);
    expect(DAEMON_LEAN_FLAGS).not.toMatch(/lite-mode|jitless/);
  });

  it('tenace run --help still answers under those flags (a fresh TMPDIR: tsx compiles, and lexes with WebAssembly)', async () => {
    const r = await runCli(['run', '--help']);
    try {
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/usage: tenace run --config FILE/);
    } finally {
      await r.dispose();
    }
  }, 30_000);
});
