// Topic names (DESIGN §6) and the checks that keep a table inside its own part of the tree.
import { describe, expect, it } from 'vitest';
import { tableTopics, trayTopic } from '../../src/feed/topics.js';

describe('topics', () => {
  it('names the topics of a table under <base>/<club>/<table>/', () => {
    const t = tableTopics('bath', 't3');
    expect([t.status, t.state, t.event, t.director, t.directorState]).toEqual([
      'tenace/bath/t3/status', 'tenace/bath/t3/state', 'tenace/bath/t3/event', 'tenace/bath/t3/director', 'tenace/bath/t3/director/state',
    ]);
    expect(t.request('claim')).toBe('tenace/bath/t3/request/claim');
    expect(t.response('claim')).toBe('tenace/bath/t3/response/claim');
    expect(t.requestFilter).toBe('tenace/bath/t3/request/+');
    expect(t.commandOf('tenace/bath/t3/request/remedy')).toBe('remedy');
    expect(t.commandOf('tenace/bath/t4/request/remedy')).toBeNull();
    expect(t.commandOf('tenace/bath/t3/request/a/b')).toBeNull();
    expect(tableTopics('c', 't', 'clubs/x').state).toBe('clubs/x/c/t/state');
    expect(trayTopic('bath', '2024-06-01', 7)).toBe('tenace/bath/trays/2024-06-01/7');
  });

  it('refuses names that would leave the table its place in the tree (and past the ACL)', () => {
    expect(() => tableTopics('bath', 'a/b')).toThrow(/table: "a\/b" must not contain/);
    expect(() => tableTopics('ba+th', 't')).toThrow(/club/);
    expect(() => tableTopics('bath', '#')).toThrow(/table/);
    expect(() => tableTopics('bath', '')).toThrow(/table: must be a non-empty string/);
    expect(() => tableTopics('$SYS', 't')).toThrow(/reserved/);
    expect(() => tableTopics('bath', 'trays')).toThrow(/reserved for the tray records/);
    expect(() => tableTopics('bath', 't', 'a//b')).toThrow(/base/);
    expect(() => trayTopic('bath', 's', -1)).toThrow(/board/);
  });
});
