// The bridge's schematic (hardware/schematic/): the text netlist must wire what the sketch drives and what
// wiring.md tells the builder, and the SVG drawing must show every pin of it with its net.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const NETLIST = readFileSync(join(ROOT, 'hardware', 'schematic', 'tenace-bridge.net'), 'utf8');
const SVG = readFileSync(join(ROOT, 'hardware', 'schematic', 'tenace-bridge.svg'), 'utf8');
const SKETCH = readFileSync(join(ROOT, 'firmware-bridge', 'arduino', 'tenace_bridge', 'tenace_bridge.ino'), 'utf8');
const WIRING = readFileSync(join(ROOT, 'hardware', 'wiring.md'), 'utf8');

const parts = new Set<string>();
const nets = new Map<string, string[]>();
for (const raw of NETLIST.split('\n')) {
  const line = raw.replace(/#.*/, '').trim();
  if (!line) continue;
  const [kind, name, ...rest] = line.split(/\s+/);
  if (kind === 'PART') parts.add(name);
  else if (kind === 'NET') nets.set(name, rest);
  else throw new Error(`tenace-bridge.net: "${line}" is neither PART nor NET`);
}
/** The net a pin is on ("U1.3", or a Pico pin by its GPIO: "U0/GP16"). */
function netOf(pin: string): string | undefined {
  const gpio = pin.startsWith('U0/') ? pin.slice(2) : null;
  for (const [name, pins] of nets) if (pins.some((p) => p === pin || (gpio !== null && p.startsWith('U0.') && p.endsWith(gpio)))) return name;
  return undefined;
}
/** A constant of the sketch: one number, or an array of them. */
function sketch(name: string): number[] {
  const m = new RegExp(`${name}(?:\\[\\])? = \\{?([\\d, ]+)\\}?;`).exec(SKETCH);
  if (!m) throw new Error(`the sketch has no ${name}`);
  return m[1].split(',').map((n) => Number(n.trim()));
}

describe('hardware/schematic/tenace-bridge.net', () => {
  it('names only declared parts, and no pin twice', () => {
    const seen = new Set<string>();
    for (const [name, pins] of nets) {
      for (const p of pins) {
        expect(parts.has(p.split('.')[0]), `${name}: ${p}`).toBe(true);
        expect(seen.has(p), `${p} is on two nets`).toBe(false);
        seen.add(p);
      }
    }
  });

  it('wires the Pico as the sketch drives it: SPI0, one chip select and one reset per reader, the probe', () => {
    expect(netOf(`U0/GP${sketch('kPinSpiMiso')[0]}`)).toBe('MISO');
    expect(netOf(`U0/GP${sketch('kPinSpiSck')[0]}`)).toBe('SCK_MCU');
    expect(netOf(`U0/GP${sketch('kPinSpiMosi')[0]}`)).toBe('MOSI_MCU');
    expect(netOf(`U0/GP${sketch('kPinPollProbe')[0]}`)).toBe('PROBE');
    sketch('kPinCs').forEach((gp, r) => expect(netOf(`U0/GP${gp}`), `reader ${r}'s chip select GP${gp}`).toBe(`CS${r}`));
    sketch('kPinRst').forEach((gp, r) => expect(netOf(`U0/GP${gp}`), `reader ${r}'s reset GP${gp}`).toBe(`RST${r}`));
  });

  it('joins each chip select to its buffer enable and each reader MISO to its buffer input, as wiring.md\'s U1 table says', () => {
    const u1 = [...WIRING.matchAll(/^\| (\d+) \| (\d)(OE̅|A|Y) \| /gm)].map((m) => ({ pin: m[1], ch: Number(m[2]) - 1, kind: m[3] }));
    expect(u1.length).toBe(12);
    for (const { pin, ch, kind } of u1) {
      const want = kind === 'OE̅' ? `CS${ch}` : kind === 'A' ? `MISO${ch}` : 'MISO';
      expect(netOf(`U1.${pin}`), `U1 pin ${pin} (${ch + 1}${kind})`).toBe(want);
    }
    expect(netOf('U1.14')).toBe('3V3');
    expect(netOf('U1.7')).toBe('GND');
  });

  it('puts each signal on the RJ45 pin of wiring.md\'s cable table, at both ends of the cable', () => {
    const cable = [...WIRING.matchAll(/^\| (\d) \| [a-z/]+ \| ([A-Z0-9]+)[^|]* \| [a-z]+ \|$/gm)].map((m) => ({ pin: m[1], signal: m[2] }));
    expect(cable.length).toBe(8);
    const hub: Record<string, (r: number) => string> = { GND: () => 'GND', SCK: () => 'SCK', MOSI: () => 'MOSI', MISO: (r) => `MISO${r}`, '3V3': () => '3V3', RST: (r) => `RST${r}`, CS: (r) => `CS${r}` };
    for (let r = 0; r < 4; r++) {
      for (const { pin, signal } of cable) {
        expect(netOf(`J${r + 1}.${pin}`), `hub socket J${r + 1} pin ${pin} (${signal})`).toBe(hub[signal](r));
        expect(netOf(`J${r + 1}R.${pin}`), `reader end J${r + 1}R pin ${pin} (${signal})`).toBe(`R${r}_${signal}`);
      }
      // The module's header: SDA is its chip select, and 3.3 V never 5 V.
      expect(netOf(`M${r}.SDA`)).toBe(`R${r}_CS`);
      expect(netOf(`M${r}.3.3V`)).toBe(`R${r}_3V3`);
    }
  });
});

describe('hardware/schematic/tenace-bridge.svg', () => {
  it('draws every pin of the netlist\'s boards and modules with its net', () => {
    const drawn = new Map([...SVG.matchAll(/data-pin="([^"]+)" data-net="([^"]+)"/g)].map((m) => [m[1], m[2]]));
    const undrawn: string[] = [];
    for (const [name, pins] of nets) {
      for (const p of pins) {
        // The readers' decoupling capacitors are listed in a note, not drawn pin by pin.
        if (/^C\d\d\./.test(p)) continue;
        if (drawn.get(p) !== name) undrawn.push(`${p} (${name}; drawn: ${drawn.get(p) ?? 'no'})`);
      }
    }
    expect(undrawn).toEqual([]);
    expect([...drawn.keys()].filter((p) => !netOf(p)), 'pins drawn that the netlist does not have').toEqual([]);
  });
});
