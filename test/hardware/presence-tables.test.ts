// The driver's tag tables stay bounded under a stream of UIDs seen once (noise, strangers' cards),
// and sweeping them forgets nothing that is still on the table: J, the seat counts shared between
// bridges, and the events that follow.
import { describe, expect, it } from 'vitest';
import { BridgeDriver, MultiBridge, type SeatEvent } from '../../src/hardware/bridge-driver.js';
import { DeckSet, virtualDeck } from '../../src/hardware/deck.js';
import { encodeFrame } from '../../src/hardware/protocol.js';

const deck = virtualDeck('tables');
const decks = new DeckSet([deck]);
const uidOf = (card: string) => decks.uidOf(card)!;
const noise = (i: number) => `04${i.toString(16).toUpperCase().padStart(12, '0')}`;

/** A device's lines as bytes: hello, then the given arrive/leave lines with consecutive seqs. */
function session(boot: number, moves: Array<['arrive' | 'leave', number, string]>): Buffer {
  const lines = [encodeFrame({ seq: 0, type: 'hello', fw: '1.0.0', proto: 2, readers: 4, reset: 'power', boot })];
  moves.forEach(([type, reader, uid], i) => lines.push(encodeFrame({ seq: i + 1, type, reader, uid })));
  return Buffer.from(`${lines.join('\n')}\n`, 'latin1');
}

const brief = (ev: SeatEvent) => `${ev.type} ${ev.seat} ${'card' in ev ? ev.card : `tag:${ev.tag}`}`;

describe('tag tables', () => {
  it('10,000 UIDs seen once: the tables stay bounded, and the cards that stay are still known', () => {
    const d = new BridgeDriver({ path: '/dev/tables', decks });
    const events: string[] = [];
    d.on('event', (ev) => events.push(brief(ev)));
    const moves: Array<['arrive' | 'leave', number, string]> = [['arrive', 0, uidOf('SA')]];
    for (let i = 0; i < 10_000; i++) moves.push(['arrive', 1, noise(i)], ['leave', 1, noise(i)]);
    moves.push(['arrive', 2, uidOf('HK')], ['leave', 0, uidOf('SA')]);
    d.receive(session(9, moves));

    expect(d.stats.badTotal + d.stats.gaps + d.stats.duplicates).toBe(0);
    expect(events.length).toBe(20_003);
    expect(events.slice(0, 3)).toEqual(['place N SA', `place E tag:${noise(0)}`, `lift E tag:${noise(0)}`]);
    expect(events.slice(-2)).toEqual(['place S HK', 'lift N SA']);
    expect(d.presence()).toEqual([{ bridge: 'tables', reader: 2, uid: uidOf('HK') }]);
    // The driver's own table was swept (it holds the tags some reader sees, and what came since).
    const internals = d as unknown as { table: { j: { tags: number } } };
    expect(internals.table.j.tags).toBeLessThanOrEqual(4096);
  });

  it('a tag held while a listener feeds 5,000 more UIDs (a sweep in between) is still the one J keeps', () => {
    const d = new BridgeDriver({ path: '/dev/tables', decks });
    const events: string[] = [];
    d.on('event', (ev) => events.push(brief(ev)));
    const SA = uidOf('SA');
    let fed = false;
    d.on('frame', (f) => {
      if (fed || f.type !== 'arrive' || f.uid !== SA) return;
      fed = true;
      // Between SA's line being read and applied: 5,000 strangers come and go on another reader.
      const lines: string[] = [];
      for (let i = 0; i < 5_000; i++) {
        lines.push(encodeFrame({ seq: 2 + 2 * i, type: 'arrive', reader: 1, uid: noise(i) }));
        lines.push(encodeFrame({ seq: 3 + 2 * i, type: 'leave', reader: 1, uid: noise(i) }));
      }
      d.receive(Buffer.from(`${lines.join('\n')}\n`, 'latin1'));
    });
    d.receive(session(3, [['arrive', 0, SA]]));
    expect(fed).toBe(true);
    expect(d.presence()).toEqual([{ bridge: 'tables', reader: 0, uid: SA }]);
    d.receive(Buffer.from(`${encodeFrame({ seq: 10_002, type: 'leave', reader: 0, uid: SA })}\n`, 'latin1'));
    expect(events.filter((e) => !e.includes('tag:'))).toEqual(['place N SA', 'lift N SA']);
    expect(d.presence()).toEqual([]);
    expect(d.stats.gaps + d.stats.duplicates + d.stats.redundant).toBe(0);
  });

  it('seat counts shared by two bridges survive sweeps: one place per card per seat, a lift when the last reader loses it', () => {
    const mb = new MultiBridge({ bridges: [{ path: '/dev/a', bridgeId: 'a' }, { path: '/dev/b', bridgeId: 'b' }], decks });
    const events: string[] = [];
    mb.on('event', (ev: SeatEvent) => events.push(brief(ev)));
    const [a, b] = mb.drivers;
    const SA = uidOf('SA');
    const DQ = uidOf('DQ');
    // Bridge a: SA arrives under N and stays; DQ comes and goes (its seat record is then empty).
    const aMoves: Array<['arrive' | 'leave', number, string]> = [['arrive', 0, SA], ['arrive', 0, DQ], ['leave', 0, DQ]];
    a.receive(session(1, aMoves));
    // Bridge b: 6,000 strangers under W, enough to sweep the shared records more than once.
    const bMoves: Array<['arrive' | 'leave', number, string]> = [];
    for (let i = 0; i < 6_000; i++) bMoves.push(['arrive', 3, noise(i)], ['leave', 3, noise(i)]);
    // Then b's reader under N sees SA too (no second place), and DQ comes back on a (a place again).
    bMoves.push(['arrive', 0, SA]);
    b.receive(session(2, bMoves));
    const more = session(1, [...aMoves, ['arrive', 0, DQ], ['leave', 0, SA]]);
    // Only the new lines of bridge a: its lines after the three already sent.
    const lines = more.toString('latin1').split('\n');
    a.receive(Buffer.from(`${lines.slice(4).join('\n')}`, 'latin1'));
    // SA has left a but b still sees it under N: no lift until b loses it too. DQ, back under N
    // on a (its seat record was swept while it was away), is seen by b too: no second place.
    const bLine = (seq: number, type: 'arrive' | 'leave', uid: string) => encodeFrame({ seq, type, reader: 0, uid });
    b.receive(Buffer.from(`${bLine(bMoves.length + 1, 'leave', SA)}\n${bLine(bMoves.length + 2, 'arrive', DQ)}\n`, 'latin1'));

    const mine = events.filter((e) => !e.includes('tag:'));
    expect(mine).toEqual(['place N SA', 'place N DQ', 'lift N DQ', 'place N DQ', 'lift N SA']);
    expect(events.length - mine.length).toBe(12_000);
    expect(mb.presence()).toEqual([{ bridge: 'a', reader: 0, uid: DQ }, { bridge: 'b', reader: 0, uid: DQ }]);
  });
});
