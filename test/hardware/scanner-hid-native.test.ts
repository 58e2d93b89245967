// The HID scanner with the real node-hid (loaded on demand): a scanner that is not there is
// reported and retried, never thrown.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { HidScanner, loadNodeHid } from '../../src/hardware/scanner-hid.js';

const nodeHidLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('node-hid'));

/** A node-hid that cannot load is a machine without its system libraries: say which, rather than a bare dlopen error. */
function failForMissingLibraries(error: string | undefined): void {
  if (error && /could not be loaded/.test(error)) {
    throw new Error(`${error}\nnode-hid's prebuilt binding needs the system packages libusb-1.0-0 and libudev1 (README.md, System packages; .ci/run installs them)`);
  }
}

describe('HidScanner with node-hid', () => {
  it('loads node-hid only when a HID scanner starts; a missing device is a status, retried with backoff', async () => {
    expect(nodeHidLoaded()).toBe(false);
    const s = new HidScanner({ target: { path: '/dev/hidraw-tenace-none' }, backoffMs: { min: 5, max: 10 } });
    const statuses: { state: string; error?: string; retryInMs?: number }[] = [];
    s.on('status', (st) => statuses.push(st));
    await s.start();
    failForMissingLibraries(statuses[0]?.error);
    expect(nodeHidLoaded()).toBe(true);
    await new Promise((r) => setTimeout(r, 60));
    await s.stop();
    const n = statuses.length;
    await new Promise((r) => setTimeout(r, 30));
    expect(statuses.length).toBe(n); // stop() ended the retries
    expect(n).toBeGreaterThanOrEqual(2);
    expect(statuses.every((x) => x.state === 'closed')).toBe(true);
    expect(statuses[0].error).toMatch(/hidraw-tenace-none/);
    expect(statuses.map((x) => x.retryInMs).slice(0, 3)).toEqual([5, 10, 10].slice(0, Math.min(3, n)));
    expect(s.isOpen()).toBe(false);
  });

  it('loadNodeHid gives an opener that rejects for a missing path', async () => {
    const open = await loadNodeHid().catch((e: Error) => {
      failForMissingLibraries(e.message);
      throw e;
    });
    await expect(open({ path: '/dev/hidraw-tenace-none' })).rejects.toThrow(/hidraw-tenace-none/);
  });
});
