// src/cli/lite.ts: V8's lite mode is for `tenace run` alone; replay, analyse and the simulators keep the JIT.
import { describe, expect, it } from 'vitest';
import { DAEMON_LITE_FLAG, isDaemonCommand } from '../../src/cli/lite.js';

describe('lite mode for the daemon only', () => {
  it('is chosen by the command, argv[2], as main.ts reads it', () => {
    expect(isDaemonCommand(['node', '/opt/tenace/bin/tenace.mjs', 'run', '--config', 'x.yaml'])).toBe(true);
    expect(isDaemonCommand(['node', 'main.js', 'replay', 'run'])).toBe(false);
    expect(isDaemonCommand(['node', 'main.js', 'simulate'])).toBe(false);
    expect(isDaemonCommand(['node', 'main.js'])).toBe(false);
  });

  it('is the one V8 flag named in bench/README.md', () => {
    expect(DAEMON_LITE_FLAG).toBe('--lite-mode');
  });
});
