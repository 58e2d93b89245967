// Helpers for the browser tests: real Chromium through playwright-core, a simulation of the whole table in-process
// with the embedded broker, the demo as `npm start` runs it in a child process, and a captured daemon log to print
// when a test fails.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type BrowserContextOptions, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, onTestFailed } from 'vitest';
import { type Logger, createLogger } from '../../src/config/logger.js';
import type { TableEvent } from '../../src/formats/table-log.js';
import { loadLog } from '../../src/cli/load-log.js';
import { type Simulation, type SimulationOptions, startSimulation } from '../../src/daemon/simulation.js';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(HERE, '..', '..');
export const SEED_HANDS = join(ROOT, 'test', 'fixtures', 'seed-hands');
export const DEMO = join(ROOT, 'demo');
export const SCREENSHOTS = join(HERE, 'screenshots');

/** Debian's chromium (`apt-get update && apt-get install -y chromium`); TENACE_CHROMIUM overrides the path. */
export const CHROMIUM = process.env.TENACE_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

/** Launch Chromium; playwright-core gives every launch a fresh temporary profile (user data dir) and removes it on close. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: install it with \`apt-get update && apt-get install -y chromium\` (or set TENACE_CHROMIUM)`);
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
}

/** Chromium for the tests of a describe block: what `open` opens and what `closeAfter` is given go with the block. */
export interface ChromiumForTests {
  /** A page in a context of its own (`init` runs before the page's scripts); page errors are printed if the test fails. */
  open(url: string, options?: BrowserContextOptions, init?: () => void): Promise<Page>;
  /** Close this after the block (a simulation, a server). */
  closeAfter(fn: () => Promise<unknown>): void;
}

/** Launch Chromium before the block's tests and close it, its pages and whatever closeAfter was given, after them. */
export function useChromium(): ChromiumForTests {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 40_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    for (const f of closers) await f();
  }, 30_000);
  return {
    async open(url, options = {}, init) {
      const ctx = await browser!.newContext(options);
      contexts.push(ctx);
      if (init) await ctx.addInitScript(init);
      const page = await ctx.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      onTestFailed(() => { if (errors.length) console.error(`page errors (${url}):\n${errors.join('\n')}`); });
      await page.goto(url);
      return page;
    },
    closeAfter: (fn) => { closers.push(fn); },
  };
}

/** The events of a table-log file. */
export function readLog(path: string): TableEvent[] {
  const log = loadLog(readFileSync(path, 'utf8'), path);
  if (log.errors.length) throw new Error(`${path}: ${log.errors.map((e) => `${e.line}: ${e.message}`).join('; ')}`);
  return log.events;
}

/** The daemon's log lines at warn and above, kept in memory. */
export function captureLog(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  return { lines, log: createLogger({ log: { level: 'warn' } }, { write: (s: string) => { lines.push(s.trimEnd()); } }) };
}

export interface RunningSimulation {
  sim: Simulation;
  lines: string[];
  /** True once `sim.done` has resolved. */
  finished(): boolean;
  close(): Promise<void>;
}

/** A simulation with the embedded broker and the table view on a free port, in its own journal folder. */
export async function simulate(opts: Partial<SimulationOptions> & Pick<SimulationOptions, 'events' | 'speed'>): Promise<RunningSimulation> {
  const journal = mkdtempSync(join(tmpdir(), 'tenace-web-'));
  const { log, lines } = captureLog();
  const sim = await startSimulation({ club: 'demo', table: '1', httpPort: 0, journal, log, ...opts });
  let done = false;
  sim.done.then(() => { done = true; }, () => undefined);
  return {
    sim, lines,
    finished: () => done,
    async close() {
      await sim.stop();
      rmSync(journal, { recursive: true, force: true });
    },
  };
}

export interface DemoProcess {
  /** The table view (public) and the director view, as the console gives them. */
  publicUrl: string;
  directorUrl: string;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Wait until stdout holds `text`. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  /** SIGINT, as Ctrl-C would; resolves with the exit code, and removes the journal folder. */
  stop(): Promise<number | null>;
}

/** `tenace simulate` as `npm start` runs it, as a child process with its own journal folder and a free HTTP port. */
export async function startDemo(args: string[] = []): Promise<DemoProcess> {
  const journal = mkdtempSync(join(tmpdir(), 'tenace-demo-'));
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'tenace.mjs'), 'simulate', '--http-port', '0', '--journal', journal, ...args],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => { out += s; });
  child.stderr.setEncoding('utf8').on('data', (s: string) => { err += s; });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const output = () => `stdout:\n${out}\nstderr:\n${err}`;
  const waitFor = async (text: string, timeoutMs = 30_000): Promise<void> => {
    const end = Date.now() + timeoutMs;
    while (!out.includes(text)) {
      if (child.exitCode !== null || Date.now() > end) throw new Error(`tenace simulate never printed "${text}"\n${output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null) child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(timer);
    rmSync(journal, { recursive: true, force: true });
    return code;
  };
  try {
    await waitFor('tenace: playing');
  } catch (e) {
    await stop();
    throw e;
  }
  const url = (label: string) => new RegExp(`^tenace: ${label} at (http://\\S+)`, 'm').exec(out)?.[1] ?? '';
  return { publicUrl: url('table view'), directorUrl: url('director view'), output, waitFor, stop };
}

/**
 * Screenshot `page` into `path`, keeping the file already there when the new image differs from it only by
 * rasterisation noise (Chromium's software raster varies a few anti-aliased pixels from run to run), so running the
 * tests leaves the committed screenshots untouched unless the page really changed.
 */
export async function saveScreenshot(page: Page, path: string, opts: { fullPage?: boolean } = {}): Promise<'written' | 'unchanged'> {
  const shot = await page.screenshot({ fullPage: opts.fullPage ?? true, animations: 'disabled', caret: 'hide' });
  if (existsSync(path) && await sameImage(page, readFileSync(path), shot)) return 'unchanged';
  writeFileSync(path, shot);
  return 'written';
}

/** Same size, and no more than a few pixels differing by more than anti-aliasing does (decoded by the page's canvas). */
async function sameImage(page: Page, a: Buffer, b: Buffer): Promise<boolean> {
  return page.evaluate(async ([a64, b64]) => {
    const load = (s: string) => new Promise<HTMLImageElement>((resolve, reject) => {
      const img = new Image();
      img.onload = () => resolve(img);
      img.onerror = () => reject(new Error('not an image'));
      img.src = `data:image/png;base64,${s}`;
    });
    let ia: HTMLImageElement;
    let ib: HTMLImageElement;
    try {
      [ia, ib] = await Promise.all([load(a64), load(b64)]);
    } catch {
      return false;
    }
    if (ia.naturalWidth !== ib.naturalWidth || ia.naturalHeight !== ib.naturalHeight) return false;
    const pixels = (img: HTMLImageElement) => {
      const c = document.createElement('canvas');
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const ctx = c.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      return ctx.getImageData(0, 0, c.width, c.height).data;
    };
    const da = pixels(ia);
    const db = pixels(ib);
    let off = 0;
    for (let i = 0; i < da.length; i += 4) {
      if (Math.max(Math.abs(da[i] - db[i]), Math.abs(da[i + 1] - db[i + 1]), Math.abs(da[i + 2] - db[i + 2])) > 24 && ++off > 10) return false;
    }
    return true;
  }, [a.toString('base64'), b.toString('base64')] as const);
}
