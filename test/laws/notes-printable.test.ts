// Engine notes quote the input (a contract's text); they reach the terminal, the JSON and the feed, so a control
// character in the input is escaped in the note, never passed on (issue 19 item 6).
import { describe, expect, it } from 'vitest';
import { Table } from '../../src/laws/engine.js';

describe('engine notes are cleaned of control characters', () => {
  it('a contract whose text holds the 8-bit CSI and a right-to-left override is noted with both escaped', () => {
    const t = new Table();
    t.apply({ type: 'deal', variant: 'bridge', board: 1, contract: '4HS' });
    t.apply({ type: 'place', seat: 'W', card: 'SA' });
    t.apply({ type: 'contract', contract: '3NT\u009b2J\u202eS' });
    const notes = t.results()[0].notes ?? [];
    expect(notes.length).toBeGreaterThan(0);
    for (const n of notes) expect(n).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(notes.join(' ')).toContain('\\x9b2J\\u202eS');
  });
});
