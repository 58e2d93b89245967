// Table-log errors quote the bad value bounded and printable, whatever the line holds.
import { describe, expect, it } from 'vitest';
import { parseTableLog } from '../../src/formats/table-log.js';

describe('parseTableLog errors', () => {
  it('a huge bad field is cut in the message, its control characters escaped', () => {
    const seat = '\u001b[2J' + 'Q'.repeat(100_000);
    const { errors } = parseTableLog(JSON.stringify({ type: 'place', seat, card: 'SA' }));
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toMatch(/^"seat" must be one of N, E, S, W \(got "\\u001b\[2JQ+…\)$/);
    expect(errors[0].message.length).toBeLessThan(120);
  });
});
