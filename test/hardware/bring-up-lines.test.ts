// hardware/bring-up.md shows the builder the exact lines a good bridge prints (issue 22, item 1). They must be what
// the firmware speaks: protocol v2 lines with their boot ids, the sketch's firmware version, real checksums, and
// `tenace-frame --check` (the tool the checklist uses) must accept every listing. The sketch header and the library
// metadata must name the same protocol and versions.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { codecParts, decodeLine, isDeviceType, PROTOCOL_VERSION } from '../../src/hardware/protocol.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FW = join(ROOT, 'firmware-bridge');
const DOC = readFileSync(join(ROOT, 'hardware', 'bring-up.md'), 'utf8');
const SKETCH = readFileSync(join(FW, 'arduino', 'tenace_bridge', 'tenace_bridge.ino'), 'utf8');
const LIBRARY = readFileSync(join(FW, 'library.properties'), 'utf8');
const FW_README = readFileSync(join(FW, 'README.md'), 'utf8');

const firmwareVersion = /kFirmwareVersion\[\] = "([^"]+)"/.exec(SKETCH)?.[1];
const firmwareProto = Number(/kProtocolVersion = (\d+);/.exec(readFileSync(join(FW, 'src', 'protocol.h'), 'utf8'))?.[1]);

/** The ```text listings of bring-up.md: captured device output, one protocol line per line. */
const listings = [...DOC.matchAll(/^```text\n([\s\S]*?)^```$/gm)].map((m) => m[1].split('\n').filter((l) => l !== ''));

let tenaceFrame: string;
beforeAll(() => {
  // The bench tool the checklist builds on the Pi, with the flags `make test` used (nothing rebuilt after it).
  const r = spawnSync('make', ['-s', '-C', FW, 'tools'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`make -C firmware-bridge tools failed: ${r.stderr}${r.stdout}`);
  tenaceFrame = join(FW, 'build', 'tenace-frame');
}, 120_000);

describe('hardware/bring-up.md: the lines a builder sees', () => {
  it('the firmware and the daemon speak the same protocol, and the sketch has a version', () => {
    expect(firmwareProto).toBe(PROTOCOL_VERSION);
    expect(firmwareVersion).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('shows at least the start-up, ident, shared-bus, play-spot, fault, snapshot and bad-input listings', () => {
    expect(listings.length).toBeGreaterThanOrEqual(7);
  });

  it('every listed line decodes as a device line (PROTOCOL.md §8), with real checksums', () => {
    for (const line of listings.flat()) {
      const r = decodeLine(line);
      expect(r.ok ? 'ok' : r.error, line).toBe('ok');
      if (r.ok) expect(isDeviceType(r.frame.type), line).toBe(true);
    }
  });

  it('every hello and identity names the sketch\'s firmware, protocol 2 and a boot id; every hb a boot id', () => {
    const frames = listings.flat().map((l) => decodeLine(l)).filter((r) => r.ok).map((r) => (r as { frame: Record<string, unknown> }).frame);
    const announcing = frames.filter((f) => f.type === 'hello' || f.type === 'identity');
    expect(announcing.length).toBeGreaterThan(0);
    for (const f of announcing) {
      expect(f.fw).toBe(firmwareVersion);
      expect(f.proto).toBe(PROTOCOL_VERSION);
      expect(f.boot).toBeGreaterThanOrEqual(1);
    }
    for (const f of frames.filter((x) => x.type === 'hb')) expect(f.boot).toBeGreaterThanOrEqual(1);
  });

  it('tenace-frame --check accepts every listing: all good, no bad line, no gap', () => {
    for (const lines of listings) {
      const r = spawnSync(tenaceFrame, ['--check'], { input: `${lines.join('\n')}\n`, encoding: 'utf8' });
      expect(r.stdout.trim().split('\n').at(-1), lines.join('\n')).toBe(`${lines.length} good, 0 bad, 0 gaps (0 lines lost), 0 duplicates`);
      expect(r.status).toBe(0);
    }
  });

  it('a line written in the prose (`hello …`, `identity …`, `hb …`) has protocol v2\'s fields, … standing for one', () => {
    const spans = [...DOC.matchAll(/`((?:hello|identity|hb) [^`]*)`/g)].map((m) => m[1]);
    expect(spans.length).toBeGreaterThan(0);
    for (const span of spans) {
      const [type, ...fields] = span.split(/\s+/);
      if (span.includes('1.0.0 1 ')) continue; // the v1 hello the checklist tells the builder to recognise
      expect(fields.length, span).toBe(codecParts.FIELD_COUNT[type]);
    }
  });

  it('the sketch header and library.properties name protocol v2 and the firmware version', () => {
    expect(SKETCH.slice(0, SKETCH.indexOf('#include'))).toContain(`protocol v${PROTOCOL_VERSION}`);
    expect(SKETCH).not.toMatch(new RegExp(`protocol v(?!${PROTOCOL_VERSION})\\d`));
    expect(/^sentence=.*$/m.exec(LIBRARY)?.[0]).toContain(`protocol v${PROTOCOL_VERSION}`);
    expect(/^version=(.*)$/m.exec(LIBRARY)?.[1]).toBe(firmwareVersion);
  });

  it('the pinned toolchain and library versions are the same in the sketch, library.properties and the README', () => {
    const core = /rp2040:rp2040 (\d+\.\d+\.\d+)/.exec(SKETCH)?.[1];
    const mfrc = /MFRC522\s+(?:\/\/\s+)?library (\d+\.\d+\.\d+)/.exec(SKETCH)?.[1];
    const cli = /arduino-cli (\d+\.\d+\.\d+)/.exec(SKETCH)?.[1];
    expect([core, mfrc, cli].every(Boolean), 'the sketch header pins the core, MFRC522 and arduino-cli').toBe(true);
    expect(FW_README).toContain(`rp2040:rp2040@${core}`);
    expect(FW_README).toContain(`MFRC522@${mfrc}`);
    expect(FW_README).toContain(`arduino-cli_${cli}_`);
    expect(LIBRARY).toContain(`depends=MFRC522 (=${mfrc})`);
  });
});
