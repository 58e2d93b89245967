// The tray barcode (hardware/tray-barcode.md): bare board, session:board, the optional check, and
// the clear refusals.
import { describe, expect, it } from 'vitest';
import {
  canonicalTrayCode, formatTrayCode, parseTrayCode, scanToEvent, trayCheck,
} from '../../src/hardware/tray-code.js';
import { crc8 } from '../../src/hardware/protocol.js';

function ok(text: string) {
  const r = parseTrayCode(text);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(text)} to parse: ${r.error}`);
  return r;
}
function bad(text: string) {
  const r = parseTrayCode(text);
  if (r.ok) throw new Error(`expected ${JSON.stringify(text)} to be refused, got board ${r.board}`);
  expect(r.error.startsWith('bad or unreadable scan: ')).toBe(true);
  return r;
}

describe('parseTrayCode: good scans', () => {
  it('a bare board number', () => {
    expect(ok('7')).toEqual({ ok: true, board: 7, code: '7', checked: false });
    expect(ok('9999').board).toBe(9999);
  });

  it('leading zeros and the scanner suffix are ignored', () => {
    expect(ok('007').code).toBe('7');
    expect(ok('000012\r\n').board).toBe(12);
    expect(ok('  12\t').board).toBe(12);
  });

  it('session:board, with the session folded to lower case', () => {
    expect(ok('2026-12-02-eve:7')).toEqual({ ok: true, board: 7, session: '2026-12-02-eve', code: '2026-12-02-eve:7', checked: false });
    expect(ok('2026-12-02-EVE:07').code).toBe('2026-12-02-eve:7');
    expect(ok('club_a.s1:24').session).toBe('club_a.s1');
    expect(ok(`${'a'.repeat(32)}:1`).session).toBe('a'.repeat(32));
  });

  it('the check form: CRC-8/SMBUS of the canonical code, as the bridge protocol computes it', () => {
    const c = crc8('2026-12-02-eve:7').toString(16).toUpperCase().padStart(2, '0');
    expect(trayCheck({ board: 7, session: '2026-12-02-eve' })).toBe(c);
    const r = ok(`2026-12-02-eve:7*${c}`);
    expect(r).toMatchObject({ board: 7, session: '2026-12-02-eve', code: '2026-12-02-eve:7', checked: true });
    expect(ok(`2026-12-02-EVE:007*${c.toLowerCase()}`).checked).toBe(true);
    expect(ok(`7*${trayCheck({ board: 7 })}`)).toMatchObject({ board: 7, checked: true });
  });

  it('an AIM symbology identifier is dropped', () => {
    expect(ok(']C02026-12-02-eve:7').code).toBe('2026-12-02-eve:7');
    expect(ok(']Q17').board).toBe(7);
  });

  it('formatTrayCode prints what parseTrayCode reads back', () => {
    for (const t of [{ board: 1 }, { board: 36, session: 'tuesday' }, { board: 9999, session: '2026-12-02-eve' }]) {
      expect(ok(formatTrayCode(t)).code).toBe(canonicalTrayCode(t));
      expect(ok(formatTrayCode(t, { check: true }))).toMatchObject({ board: t.board, checked: true });
    }
    expect(() => formatTrayCode({ board: 0 })).toThrow(/1\.\.9999/);
    expect(() => formatTrayCode({ board: 3, session: 'has space' })).toThrow(/session/);
  });
});

describe('parseTrayCode: refusals say why', () => {
  it('nothing read, or the scanner\'s no-read message', () => {
    expect(bad('').problem).toBe('unreadable');
    expect(bad('\r\n').error).toMatch(/nothing was read/);
    expect(bad('NR').problem).toBe('unreadable');
    expect(bad('NOREAD').error).toMatch(/no read/);
  });

  it('control or non-ASCII bytes inside the code', () => {
    expect(bad('1\x002').problem).toBe('unreadable');
    expect(bad('12\u00e9').error).toMatch(/not ASCII/);
    expect(bad('1\uFFFD').problem).toBe('unreadable');
  });

  it('text that is not a tray code', () => {
    expect(bad('hello').problem).toBe('bad-code');
    expect(bad('7a').problem).toBe('bad-code');
    expect(bad('1 2').problem).toBe('bad-code');
    expect(bad(':7').error).toMatch(/no session/);
    expect(bad('eve:').error).toMatch(/no board number after ":"/);
    expect(bad('-eve:7').error).toMatch(/start with a letter or digit/);
    expect(bad('ev e:7').problem).toBe('bad-code');
    expect(bad('a:b:7').problem).toBe('bad-code');
    expect(bad(`${'a'.repeat(33)}:1`).error).toMatch(/longer than 32/);
    expect(bad('1234567').problem).toBe('bad-code');
    expect(bad('7*G1').error).toMatch(/two hex check characters/);
    expect(bad('7*').problem).toBe('bad-code');
  });

  it('a board out of range', () => {
    expect(bad('0').problem).toBe('bad-board');
    expect(bad('eve:000').problem).toBe('bad-board');
    expect(bad('10000').error).toMatch(/out of range/);
  });

  it('a wrong check is a misread', () => {
    const c = trayCheck({ board: 7, session: 'eve' });
    const wrong = ((parseInt(c, 16) + 1) & 0xff).toString(16).toUpperCase().padStart(2, '0');
    const r = bad(`eve:7*${wrong}`);
    expect(r.problem).toBe('bad-check');
    expect(r.error).toContain(`expected ${c}`);
  });

  it('the check catches every single-character substitution and every adjacent swap', () => {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789-_.:';
    for (const t of [{ board: 7, session: '2026-12-02-eve' }, { board: 128, session: 'club.a_1' }, { board: 42 }]) {
      const label = formatTrayCode(t, { check: true });
      const star = label.indexOf('*');
      const body = label.slice(0, star);
      const tail = label.slice(star);
      let tried = 0;
      for (let i = 0; i < body.length; i++) {
        for (const ch of alphabet) {
          if (ch === body[i]) continue;
          const r = parseTrayCode(body.slice(0, i) + ch + body.slice(i + 1) + tail);
          // Either refused, or read as the same tray (a substitution that keeps the meaning: none here).
          if (r.ok) expect(r.code).toBe(canonicalTrayCode(t));
          tried++;
        }
        if (i + 1 < body.length && body[i] !== body[i + 1]) {
          const swapped = body.slice(0, i) + body[i + 1] + body[i] + body.slice(i + 2);
          const r = parseTrayCode(swapped + tail);
          if (r.ok) expect(r.code).toBe(canonicalTrayCode(t));
        }
      }
      expect(tried).toBeGreaterThan(50);
    }
  });

  it('scanToEvent: a tray TableEvent or a scan-error event', () => {
    const now = new Date('2026-12-02T19:00:00Z');
    expect(scanToEvent('2026-12-02-EVE:7\r', '/dev/x', now)).toEqual({ type: 'tray', code: '2026-12-02-eve:7', at: now.toISOString() });
    const e = scanToEvent('\x01garbage\xff', '/dev/x', now);
    expect(e).toMatchObject({ type: 'scan-error', problem: 'unreadable', source: '/dev/x', text: '\\x01garbage\\xff' });
  });
});
