// Command validation without a broker: every refusal names the field and says what to send instead.
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/feed/commands.js';

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
