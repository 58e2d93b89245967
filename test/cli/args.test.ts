// The shared CLI parser: every command answers --version and suggests the nearest flag for a mistyped one.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/cli/args.js';
import { checkConfigCommand } from '../../src/cli/check-config.js';

const root = resolve(import.meta.dirname, '../..');
const bin = resolve(root, 'bin/tenace.mjs');
const { version } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string };

function capture(): { io: { out(s: string): void; err(s: string): void }; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { io: { out: (s) => { out += s; }, err: (s) => { err += s; } }, out: () => out, err: () => err };
}

const OPTIONS = { print: { type: 'boolean' }, 'skip-files': { type: 'boolean' }, speed: { type: 'string' } } as const;

describe('parseCommand', () => {
  it('suggests the nearest option for a mistyped one, and still exits 64 with the usage', () => {
    const c = capture();
    expect(parseCommand('demo', 'usage: demo\n', { args: ['--skip-file'], options: OPTIONS }, c.io)).toBe(64);
    expect(c.err()).toBe('tenace demo: unknown option --skip-file: did you mean --skip-files?\nusage: demo\n');
  });

  it('keeps node\'s message when nothing is near', () => {
    const c = capture();
    expect(parseCommand('demo', 'usage: demo\n', { args: ['--frobnicate'], options: OPTIONS }, c.io)).toBe(64);
    expect(c.err()).toMatch(/Unknown option '--frobnicate'/);
  });

  it('answers --version for any command', () => {
    const c = capture();
    expect(parseCommand('demo', 'usage: demo\n', { args: ['--version'], options: OPTIONS }, c.io)).toBe(0);
    expect(c.out()).toBe(`tenace ${version}\n`);
  });

  it('passes the parsed values through otherwise', () => {
    const c = capture();
    const r = parseCommand('demo', 'usage: demo\n', { args: ['--speed', 'max'], options: OPTIONS }, c.io);
    expect(typeof r === 'number' ? r : r.values.speed).toBe('max');
  });

  it('check-config, through the same parser: --prnt is --print', () => {
    const c = capture();
    expect(checkConfigCommand(['x.yaml', '--prnt'], c.io, {})).toBe(64);
    expect(c.err()).toMatch(/did you mean --print\?/);
  });
});

describe('tenace (the bin)', () => {
  it('tenace --version and tenace deck --version print the version', () => {
    for (const argv of [['--version'], ['deck', '--version']]) {
      const r = spawnSync(process.execPath, [bin, ...argv], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(`tenace ${version}\n`);
    }
  });

  it('a mistyped command gets the nearest one suggested', () => {
    const r = spawnSync(process.execPath, [bin, 'replya'], { encoding: 'utf8' });
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(/^tenace: unknown command "replya": did you mean "replay"\?$/m);
  });
});
