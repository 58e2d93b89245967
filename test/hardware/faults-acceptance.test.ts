// Issue 12, "Done when" (the line-fault half; kill -9 of the daemon is test/daemon): Hoyle's four seed
// hands played through the v2 firmware emulator on a socat pty pair, the real driver on the other
// end, and the rules engine folding the journal as the daemon does. Under each fault, every run's
// tricks and findings equal the clean run's — or the journal marks the stretch whose order was lost
// (orderUnknown), the director is told (`play-order-lost`), and no out-of-turn, renounce or revoke
// finding is one the clean run does not have. Zero false revokes in every run.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadLog } from '../../src/cli/load-log.js';
import type { TableEvent } from '../../src/formats/table-log.js';
import { BridgeDriver } from '../../src/hardware/bridge-driver.js';
import { DeckSet, virtualDeck } from '../../src/hardware/deck.js';
import { FirmwareEmulator, ptyLink } from '../../src/hardware/emulator.js';
import { PtyPair, requireSocat } from '../../src/hardware/pty.js';
import { replay } from '../../src/laws/engine.js';
import type { DealResult, Finding } from '../../src/laws/types.js';

const root = resolve(import.meta.dirname, '../..');
const HANDS = [1, 2, 3, 4].map((n) => {
  const file = resolve(root, `test/fixtures/seed-hands/hand${n}.ndjson`);
  return loadLog(readFileSync(file, 'utf8'), file).events;
});
const deck = virtualDeck('acceptance');
const decks = new DeckSet([deck]);
/** Findings that accuse a player of playing out of order or of not following suit. */
const ACCUSING = new Set(['lead-out-of-turn', 'play-out-of-turn', 'renounce-in-error', 'revoke']);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, ms: number, what: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what()}`);
    await sleep(5);
  }
}

interface TableRun {
  journal: TableEvent[];
  deals: DealResult[];
  driver: BridgeDriver;
  emu: FirmwareEmulator;
}

/**
 * One session: the emulator plays the four hands' place/lift events (faults from `faults`, whose
 * `at=` counts within each hand), the driver's events go to the journal in arrival order, and each
 * hand's deal event goes in before its cards, as the club layer sends it once the last hand's cards
 * are journaled. Then the engine folds the journal.
 */
async function playTable(faults: string): Promise<TableRun> {
  const pair = await PtyPair.create();
  const journal: TableEvent[] = [];
  const append = (e: TableEvent) => journal.push({ ...e, seq: journal.length + 1 } as TableEvent);
  const driver = new BridgeDriver({ path: pair.b, bridgeId: 'acc', decks, reconnectMaxMs: 300 });
  driver.on('event', (e) => append(e as TableEvent));
  const emu = new FirmwareEmulator({ readers: 4, faults });
  let rfid = 0;
  try {
    driver.start();
    await emu.start(ptyLink(pair));
    for (const events of HANDS) {
      const cards = events.filter((e) => e.type === 'place' || e.type === 'lift');
      const { seq: _s, ...deal } = events[0];
      append(deal as TableEvent);
      const r = await emu.play(cards, { deck, speed: 'max' });
      expect(r.resyncTimeouts + r.hostWaitTimeouts, `${faults}: the emulator waited in vain for the host`).toBe(0);
      // A card placed and lifted while the cable is out is seen by no hardware (the test's windows avoid it).
      rfid += cards.length - r.outages.reduce((n, o) => n + o.invisible.length, 0);
      await until(() => journal.filter((e) => e.type === 'place' || e.type === 'lift').length >= rfid, 15_000,
        () => `${faults}: ${journal.length} events journaled, ${rfid} cards expected`);
    }
    await sleep(100); // a phantom would show here
  } finally {
    await emu.stop();
    await driver.stop();
    await pair.close();
  }
  return { journal, deals: replay(journal).deals, driver, emu };
}

/** A finding without the journal positions, which differ when events are re-marked. */
function finding(f: Finding): string {
  return `${f.kind} ${f.seat} t${f.trick} ${f.law}${f.card ? ` ${f.card}` : ''}`;
}
function tricks(d: DealResult): string[] {
  return d.tricks.map((t) => `${t.leader}:${Object.entries(t.cards).map(([s, c]) => `${s}${c}`).join(',')}>${t.winner}`);
}

let clean: DealResult[];

beforeAll(async () => {
  requireSocat(); // not a skip: without socat this suite fails, loudly
  clean = (await playTable('')).deals;
}, 30_000);

describe('issue 12: the four seed hands through emulator, pty, driver and engine under line faults', () => {
  it('the clean run equals the seed hands folded directly (13 tricks each, the book results)', () => {
    const direct = replay(HANDS.flat().map((e, i) => ({ ...e, seq: i + 1 }))).deals;
    expect(clean.map(tricks)).toEqual(direct.map(tricks));
    expect(clean.map((d) => d.findings.map(finding))).toEqual(direct.map((d) => d.findings.map(finding)));
    expect(clean.map((d) => d.tricks.length)).toEqual([13, 13, 13, 13]);
    expect(clean[0].tricksWon).toEqual({ NS: 11, EW: 2 });
  });

  const runs: Array<{ spec: string; mayLoseOrder: boolean }> = [
    { spec: 'crc:0.05,seed:3', mayLoseOrder: false },
    { spec: 'crc:0.05,seed:11', mayLoseOrder: false },
    { spec: 'crc:0.1,seed:5', mayLoseOrder: false },
    { spec: 'crc:0.1,seed:8', mayLoseOrder: false },
    { spec: 'lose:0.02,seed:4', mayLoseOrder: false },
    { spec: 'lose:0.02,seed:9', mayLoseOrder: false },
    { spec: 'flicker:0.05,seed:2', mayLoseOrder: false },
    { spec: 'crc:0.05,lose:0.02,flicker:0.05,seed:6', mayLoseOrder: false },
    { spec: 'reset:at=37', mayLoseOrder: true },
    { spec: 'reset:at=61:hello=lost', mayLoseOrder: true },
    { spec: 'reset:at=23:hello=crc,seed:2', mayLoseOrder: true },
    { spec: 'badhello:at=45', mayLoseOrder: false },
    { spec: 'unplug:at=30:for=600:play=3', mayLoseOrder: true },
  ];

  for (const { spec, mayLoseOrder } of runs) {
    it(`${spec}: the clean run's tricks and findings, or a stretch marked order-unknown with no accusation resting on it; no false revoke`, async () => {
      const run = await playTable(spec);
      const unknown = run.journal.filter((e) => (e as { orderUnknown?: true }).orderUnknown);
      expect(run.deals).toHaveLength(4);
      const st = run.emu.stats;
      expect(st.corrupted + st.lost + st.flickers + st.resets + st.unplugs + st.badHellos, 'the faults happened').toBeGreaterThan(0);
      // Zero false revokes, and no accusation the clean run does not make.
      for (const [i, d] of run.deals.entries()) {
        const cleanAccusations = clean[i].findings.filter((f) => ACCUSING.has(f.kind)).map(finding);
        const accusations = d.findings.filter((f) => ACCUSING.has(f.kind)).map(finding);
        expect(accusations.filter((a) => a.startsWith('revoke') && !cleanAccusations.includes(a)), `deal ${i + 1}`).toEqual([]);
        for (const a of accusations) expect(cleanAccusations, `deal ${i + 1}: ${a}`).toContain(a);
      }
      if (unknown.length === 0) {
        // The order was never lost: exactly the clean play.
        expect(run.deals.map(tricks)).toEqual(clean.map(tricks));
        expect(run.deals.map((d) => d.findings.map(finding))).toEqual(clean.map((d) => d.findings.map(finding)));
        expect(run.deals.map((d) => d.tricksWon)).toEqual(clean.map((d) => d.tricksWon));
      } else {
        // Lines lost in play are replayed, so line noise loses no order; only a damaged line of the
        // first snapshot (play already started, the bridge's first-poll re-sightings not yet told
        // apart) can leave a card or two honestly marked.
        if (!mayLoseOrder) expect(unknown.length, `${spec} lost the order of ${unknown.length} events`).toBeLessThanOrEqual(2);
        // Every deal where the order was lost tells the director so.
        for (const [i, d] of run.deals.entries()) {
          const dealSeq = run.journal.filter((e) => e.type === 'deal')[i].seq!;
          const nextDeal = run.journal.filter((e) => e.type === 'deal')[i + 1]?.seq ?? Infinity;
          const lostHere = unknown.some((e) => e.seq! > dealSeq && e.seq! < nextDeal);
          expect(d.findings.some((f) => f.kind === 'play-order-lost'), `deal ${i + 1}`).toBe(lostHere);
        }
      }
      // Nothing lost, nothing invented: the same cards placed and lifted, per seat.
      const cardsOf = (es: readonly TableEvent[]) => es.filter((e) => e.type === 'place' || e.type === 'lift')
        .map((e) => `${e.type} ${(e as { seat: string }).seat} ${(e as { card?: string }).card}`).sort();
      expect(cardsOf(run.journal)).toEqual(cardsOf(HANDS.flat()));
    }, 30_000);
  }
});
