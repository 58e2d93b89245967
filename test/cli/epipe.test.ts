// `tenace … | head`: when the reader of stdout goes away, the command ends quietly, with no EPIPE stack.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const bin = resolve(root, 'bin/tenace.mjs');

/** Run the bin with its stdout closed at once, as `| head` closes it early; resolves to exit code and stderr. */
function withClosedStdout(argv: string[]): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, ...argv], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
    child.on('error', fail);
    child.on('close', (code, signal) => done({ code, signal, stderr }));
  });
}

describe('a closed stdout (issue 11: unhandled EPIPE stack)', () => {
  it('tenace replay … | head exits 0 and writes nothing to stderr', async () => {
    const r = await withClosedStdout(['replay', resolve(root, '../shared/data/camrose2024-ben.pbn')]);
    expect(r).toEqual({ code: 0, signal: null, stderr: '' });
  }, 30_000);

  it('tenace check-config --env | head exits 0 and writes nothing to stderr', async () => {
    const r = await withClosedStdout(['check-config', 'config/tenace.example.yaml', '--env']);
    expect(r).toEqual({ code: 0, signal: null, stderr: '' });
  }, 30_000);
});
