// Enrolment: the pure state machine, and `tenace enrol` on MockBinding.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { enrolCommand } from '../../src/cli/enrol.js';
import { DeckSet, loadDeckFile, virtualDeck, writeDeckFile } from '../../src/hardware/deck.js';
import { cardName, Enrolment, enrolmentOrder } from '../../src/hardware/enrol.js';
import { decodeLine, encodeFrame, type Frame } from '../../src/hardware/protocol.js';
import { MockBinding, scriptedPort } from './mock-port.js';


// Every scratch folder of this file is made in one folder, removed after its tests (nothing left in /tmp).
const scratch = mkdtempSync(join(tmpdir(), 'tenace-enrol-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const uidN = (n: number) => `04${n.toString(16).toUpperCase().padStart(12, '0')}`;

describe('Enrolment (state machine)', () => {
  it('asks for the cards in the stated order, with progress and the name in words', () => {
    const e = new Enrolment({ deck: 'club-red-1' });
    expect(e.progress()).toBe('0/52');
    expect(e.prompt()).toBe('Next: the ace of spades (SA)');
    expect(e.tap(uidN(1))).toMatchObject({ ok: true, card: 'SA', done: 1, complete: false });
    expect(e.prompt()).toBe('Next: the king of spades (SK)');
    for (let i = 2; i <= 15; i++) e.tap(uidN(i));
    expect(e.progress()).toBe('15/52');
    expect(e.prompt()).toBe('Next: the queen of hearts (HQ)');
    const suit = new Enrolment({ deck: 'x', order: 'suit' });
    expect(suit.prompt()).toBe('Next: the two of clubs (C2)');
    expect(enrolmentOrder('suit').at(-1)).toBe('SA');
    expect(cardName('DT')).toBe('the ten of diamonds');
  });

  it('enrols all 52 and then says so', () => {
    const e = new Enrolment({ deck: 'p' });
    let last;
    for (let i = 0; i < 52; i++) last = e.tap(uidN(100 + i));
    expect(last).toMatchObject({ ok: true, card: 'C2', complete: true });
    expect(e.isComplete()).toBe(true);
    expect(e.tap(uidN(999))).toMatchObject({ ok: false, reason: 'complete' });
    expect(Object.keys(e.toDeckFile().cards)).toHaveLength(52);
    expect(e.prompt()).toMatch(/All 52 cards of deck p are enrolled/);
  });

  it('rejects a tag already enrolled in this deck or in another deck, clearly', () => {
    const other = virtualDeck('club-blue-1');
    const e = new Enrolment({ deck: 'club-red-1', others: new DeckSet([other]) });
    e.tap(uidN(1));
    const again = e.tap(uidN(1));
    expect(again).toMatchObject({ ok: false, reason: 'already-in-deck' });
    expect(again.message).toMatch(/already enrolled as the ace of spades \(SA\)/);
    expect(again.message).toMatch(/tap the king of spades \(SK\)/);
    const blueUid = Object.keys(other.cards).find((u) => other.cards[u] === 'D7')!;
    const cross = e.tap(blueUid);
    expect(cross).toMatchObject({ ok: false, reason: 'in-other-deck' });
    expect(cross.message).toMatch(/belongs to deck club-blue-1, where it is the seven of diamonds \(D7\)/);
    expect(e.done).toBe(1);
    expect(e.tap('nonsense')).toMatchObject({ ok: false, reason: 'bad-uid' });
  });

  it('resumes from a partial file, keeping the order and refusing its tags', () => {
    const a = new Enrolment({ deck: 'p' });
    for (let i = 0; i < 20; i++) a.tap(uidN(i + 1));
    const partial = a.toDeckFile();
    const b = new Enrolment({ deck: 'p', resume: partial });
    expect(b.progress()).toBe('20/52');
    expect(b.next()).toBe(a.next());
    expect(b.tap(uidN(5))).toMatchObject({ ok: false, reason: 'already-in-deck' });
    expect(b.tap(uidN(500))).toMatchObject({ ok: true, card: a.next() });
    expect(() => new Enrolment({ deck: 'q', resume: partial })).toThrow(/deck "p", not "q"/);
  });

  it('undo forgets the last card', () => {
    const e = new Enrolment({ deck: 'p' });
    e.tap(uidN(1));
    e.tap(uidN(2));
    expect(e.undo()).toBe('SK');
    expect(e.next()).toBe('SK');
    expect(e.tap(uidN(3))).toMatchObject({ ok: true, card: 'SK' });
  });
});

describe('tenace enrol (MockBinding)', () => {
  afterEach(() => MockBinding.reset());

  /** Starts `enrol` against a mock device that answers ident/present; returns a tap function. */
  function start(argv: string[], path: string) {
    let seq = 0;
    let out = '';
    const { binding, port } = scriptedPort(path, (buf) => {
      for (const line of buf.toString('latin1').split('\n')) {
        const r = decodeLine(line);
        if (!r.ok) continue;
        setImmediate(() => {
          send({ type: 'ack', hseq: r.frame.seq, cmd: r.frame.type });
          if (r.frame.type === 'ident') send({ type: 'identity', fw: '2.0.0', proto: 2, readers: 4, reset: 'power', uptimeS: 1, boot: 1 });
          if (r.frame.type === 'present') {
            send({ type: 'snap', hseq: r.frame.seq, total: 0 });
            send({ type: 'snapend', hseq: r.frame.seq, total: 0, status: 'OOOO' });
          }
        });
      }
    });
    const send = (f: Omit<Frame, 'seq'>) => {
      seq = seq >= 65535 ? 1 : seq + 1;
      port()?.emitData(`${encodeFrame({ ...f, seq } as Frame)}\n`);
    };
    const input = new PassThrough();
    const done = enrolCommand(argv, { io: { out: (s) => (out += s), err: (s) => (out += s) }, binding, input, signals: false });
    return {
      done,
      input,
      output: () => out,
      ready: () => new Promise<void>((res) => {
        const t = setInterval(() => {
          if (out.includes('Bridge ready')) {
            clearInterval(t);
            res();
          }
        }, 5);
      }),
      tap: async (reader: number, uid: string) => {
        send({ type: 'arrive', reader, uid });
        send({ type: 'leave', reader, uid });
        await new Promise((r) => setTimeout(r, 15));
      },
    };
  }

  it('walks through the cards, refuses a repeat, saves after each card and resumes', async () => {
    const dir = mkdtempSync(join(scratch, 'case-'));
    const file = join(dir, 'red.json');
    const path = '/dev/serial/by-id/usb-enrol-1';
    const s = start(['--deck', 'red', '--port', path, '--out', file], path);
    await s.ready();
    await s.tap(0, uidN(1));
    await s.tap(2, uidN(2));
    await s.tap(1, uidN(1));
    expect(loadDeckFile(file).cards).toEqual({ [uidN(1)]: 'SA', [uidN(2)]: 'SK' });
    s.input.write('quit\n');
    expect(await s.done).toBe(1);
    expect(s.output()).toMatch(/0\/52 {2}Next: the ace of spades \(SA\)/);
    expect(s.output()).toMatch(/✓ SA \(1\/52\)/);
    expect(s.output()).toMatch(/✗ That tag is already enrolled as the ace of spades/);
    expect(s.output()).toMatch(/2\/52 {2}Next: the queen of spades \(SQ\)/);

    // resume, only reader 3, with another pack loaded
    const other = virtualDeck('blue');
    writeDeckFile(join(dir, 'blue.json'), other);
    const path2 = '/dev/serial/by-id/usb-enrol-2';
    const r = start(['--deck', 'red', '--port', path2, '--out', file, '--reader', '3', '--other', join(dir, 'blue.json')], path2);
    await r.ready();
    expect(r.output()).toMatch(/Resuming deck red .*2\/52 already enrolled/);
    await r.tap(0, uidN(3)); // wrong reader: ignored
    await r.tap(3, Object.keys(other.cards)[0]); // a tag of the other pack
    await r.tap(3, uidN(3));
    r.input.write('undo\n');
    await new Promise((res) => setTimeout(res, 20));
    await r.tap(3, uidN(4));
    for (let i = 5; i < 5 + 49; i++) await r.tap(3, uidN(i));
    expect(await r.done).toBe(0);
    expect(r.output()).toMatch(/belongs to deck blue/);
    expect(r.output()).toMatch(/Forgot SQ/);
    expect(r.output()).toMatch(/All 52 cards of deck red are enrolled/);
    const final = loadDeckFile(file);
    expect(Object.keys(final.cards)).toHaveLength(52);
    expect(final.cards[uidN(4)]).toBe('SQ');
    expect(final.cards[uidN(3)]).toBeUndefined();
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(/"deck": "red"/);
  }, 20_000);
});
