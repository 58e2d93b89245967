// Command validation without a broker: every refusal names the field and says what to send instead.
import { describe, expect, it } from 'vitest';
import { type FeedCommand, TransactionIndex, checkCommand, commandDigest, commandTx } from '../../src/feed/commands.js';
import { type TableEvent, validateTableEvent } from '../../src/formats/table-log.js';

const bad: [cmd: string, payload: string, field: string, fix: RegExp][] = [
  ['claim', '{"transaction":"t1","seat":"N"', 'payload', /not valid JSON/],
  ['claim', '[1,2]', 'payload', /must be a JSON object/],
  ['claim', '{"seat":"N","tricks":3}', 'transaction', /is missing; give a transaction id/],
  ['claim', '{"transaction":"","seat":"N","tricks":3}', 'transaction', /fewer than 1|transaction id/],
  ['claim', '{"transaction":{"x":1},"seat":"N","tricks":3}', 'transaction', /must be a string or integer/],
  ['claim', '{"transaction":"t","seat":"X","tricks":3}', 'seat', /use one of N, E, S, W/],
  ['claim', '{"transaction":"t","seat":"N","tricks":14}', 'tricks', /0-13/],
  ['claim', '{"transaction":"t","seat":"N","tricks":"3"}', 'tricks', /must be an integer/],
  ['claim', '{"transaction":"t","seat":"N","tricks":3,"force":true}', 'force', /not a field of claim; remove it/],
  ['start-deal', '{"transaction":1}', 'board', /is missing; give the board number/],
  ['start-deal', '{"transaction":1,"board":-1}', 'board', /integer 0 or more/],
  ['start-deal', '{"transaction":1,"board":3,"variant":"poker"}', 'variant', /use one of duplicate-whist/],
  ['start-deal', '{"transaction":1,"board":3,"hands":"N:AKQ.JT9.876.5432 AKQ.JT9.876.5432 - -"}', 'hands', /dealt to both|PBN deal/],
  ['start-deal', '{"transaction":1,"board":3,"trumpSlip":"Z9"}', 'trumpSlip', /"Z9" is not a card/],
  ['start-deal', '{"transaction":1,"board":3,"contract":"8HE"}', 'contract', /is not a contract; give level/],
  ['start-deal', '{"transaction":1,"board":3,"seats":["N","N"]}', 'seats', /two to four different seats/],
  ['set-contract', '{"transaction":"t"}', 'contract', /is missing/],
  ['remedy', '{"transaction":"t","by":"E","remedy":"call-suit"}', 'suit', /is missing; use one of S, H, D, C/],
  ['remedy', '{"transaction":"t","by":"E","remedy":"call-card","card":"X"}', 'card', /at least 2|suit then rank/],
  ['remedy', '{"transaction":"t","by":"E","remedy":"call-card","card":"XX"}', 'card', /"XX" is not a card/],
  ['remedy', '{"transaction":"t","by":"E","remedy":"shout"}', 'remedy', /use one of call-suit/],
  ['undo-misread', '{"transaction":"t","seq":-4}', 'seq', /the seq of the misread event/],
  ['undo-misread', '{"transaction":"t","seq":1.5}', 'seq', /must be an integer/],
  ['teleport', '{"transaction":"t"}', 'command', /is not a command; use one of start-deal/],
];

describe('checkCommand', () => {
  it.each(bad)('%s %s → %s', (cmd, payload, field, fix) => {
    const r = checkCommand(cmd, payload);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.startsWith(`${field}: `), r.error).toBe(true);
    expect(r.error).toMatch(fix);
  });

  it('echoes the transaction of a refused command when it has one', () => {
    const r = checkCommand('claim', '{"transaction":"abc","seat":"Q","tricks":1}');
    expect(r).toMatchObject({ ok: false, transaction: 'abc' });
  });

  it('refuses an oversized payload before parsing it', () => {
    const r = checkCommand('claim', `{"transaction":"t","pad":"${'x'.repeat(20_000)}"}`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^payload: is \d+ bytes/);
  });

  it('accepts valid commands and normalises cards', () => {
    expect(checkCommand('remedy', '{"transaction":"t","by":"E","remedy":"call-card","seat":"N","card":"♥10"}')).toEqual({
      ok: true, command: { name: 'remedy', transaction: 't', params: { by: 'E', remedy: 'call-card', seat: 'N', card: 'HT' } },
    });
    const sd = checkCommand('start-deal', JSON.stringify({
      transaction: 9, board: 7, variant: 'duplicate-whist', dealer: 'W', trumpSlip: 'h5', vulnerable: 'NS',
      hands: 'N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432',
    }));
    expect(sd.ok).toBe(true);
    if (sd.ok) expect(sd.command.params).toMatchObject({ board: 7, trumpSlip: 'H5' });
    expect(checkCommand('undo-misread', '{"transaction":"u1","seq":12}').ok).toBe(true);
    expect(checkCommand('abandon-deal', '{"transaction":"a"}').ok).toBe(true);
    expect(checkCommand('set-contract', '{"transaction":"s","contract":"3NTSX"}').ok).toBe(true);
    expect(checkCommand('claim', new TextEncoder().encode('{"transaction":"c","seat":"S","tricks":13}')).ok).toBe(true);
  });
});

/** A valid command from a JSON payload (the test fails here if it is not one). */
function cmd(name: string, payload: object): FeedCommand {
  const r = checkCommand(name, JSON.stringify(payload));
  if (!r.ok) throw new Error(r.error);
  return r.command;
}

describe('exactly once (issue 12 item 5)', () => {
  it('digests the name and canonical body: key order and card spelling do not matter, every other difference does', () => {
    const a = cmd('remedy', { transaction: 'r', by: 'E', remedy: 'call-card', seat: 'N', card: '♥10' });
    const b = cmd('remedy', { card: 'HT', seat: 'N', remedy: 'call-card', by: 'E', transaction: 'another id' });
    expect(commandDigest(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(commandDigest(b)).toBe(commandDigest(a));
    expect(commandDigest(cmd('remedy', { transaction: 'r', by: 'E', remedy: 'call-card', seat: 'N', card: 'H9' }))).not.toBe(commandDigest(a));
    // The same fields under another command name are another command.
    expect(commandDigest(cmd('claim', { transaction: 1, seat: 'S', tricks: 3 })))
      .not.toBe(commandDigest({ name: 'undo-misread', transaction: 1, params: { seat: 'S', tricks: 3 } } as unknown as FeedCommand));
    expect(commandTx(a)).toEqual({ id: 'r', digest: commandDigest(a) });
  });

  it('answers a retry with the first answer and refuses the id reused for another body, naming the transaction', () => {
    const index = new TransactionIndex();
    const deal = cmd('start-deal', { transaction: 'd1', board: 3 });
    expect(index.lookup(deal)).toEqual({ kind: 'new' });
    index.record(deal, { seq: 1 });
    expect(index.lookup(cmd('start-deal', { board: 3, transaction: 'd1' }))).toEqual({ kind: 'repeat', answer: { seq: 1 } });
    const other = index.lookup(cmd('start-deal', { transaction: 'd1', board: 4 }));
    expect(other.kind).toBe('conflict');
    if (other.kind === 'conflict') {
      expect(other.error).toMatch(/^transaction: "d1" was already used for another command \(start-deal, journaled as seq 1\); send this command with a new transaction id/);
    }
    expect(index.lookup(cmd('claim', { transaction: 'd1', seat: 'N', tricks: 2 })).kind).toBe('conflict');
    // 7 and "7" are two ids.
    index.record(cmd('claim', { transaction: 7, seat: 'N', tricks: 2 }), { seq: 9 });
    expect(index.lookup(cmd('claim', { transaction: '7', seat: 'N', tricks: 3 }))).toEqual({ kind: 'new' });
  });

  it('rebuilds the index from journaled events with tx (what a restarted daemon does)', () => {
    const deal = cmd('start-deal', { transaction: 'd1', board: 3 });
    const undo = cmd('undo-misread', { transaction: 'u', seq: 2 });
    const events: TableEvent[] = [
      { type: 'deal', board: 3, seq: 1, tx: commandTx(deal) },
      { type: 'place', seat: 'N', card: 'SA', seq: 2 },
      { type: 'undo', target: 2, seq: 3, tx: commandTx(undo) },
    ];
    const index = TransactionIndex.fromEvents(events);
    expect(index.size).toBe(2);
    expect(index.lookup(deal)).toEqual({ kind: 'repeat', answer: { seq: 1 } });
    expect(index.lookup(undo)).toEqual({ kind: 'repeat', answer: { seq: 3 } });
    const reuse = index.lookup(cmd('undo-misread', { transaction: 'u', seq: 5 }));
    expect(reuse.kind === 'conflict' && reuse.error).toMatch(/^transaction: "u" was already used for another command \(undo-misread, journaled as seq 3\)/);
  });

  it('checks the table-log tx field (docs/contracts.md §4)', () => {
    const digest = 'ab'.repeat(32);
    expect(validateTableEvent({ type: 'claim', seat: 'N', tricks: 2, tx: { id: 't1', digest } })).toBeNull();
    expect(validateTableEvent({ type: 'deal', tx: { id: 12, digest } })).toBeNull();
    for (const tx of [{ id: '', digest }, { id: 1.5, digest }, { id: 't', digest: 'AB'.repeat(32) }, { id: 't' }, 'x', null]) {
      expect(validateTableEvent({ type: 'deal', tx }), JSON.stringify(tx)).toMatch(/^"tx" must be \{"id": the transaction/);
    }
  });
});
