// One rule for club and table ids (issue 18): the table's config, the director's config and mosquitto/add-user.sh
// accept and refuse the same ids. "bath-north" passed `tenace director --check` while add-user.sh refused it (a club
// id with a hyphen makes the account "table-bath-north-1" ambiguous); now it fails everywhere alike, with the fix.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDirectorConfig } from '../../src/club/director/config.js';
import { parseConfig } from '../../src/config/load.js';
import { SCHEDULE } from '../club/director-rig.js';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'tenace-ids-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'schedule.json'), JSON.stringify(SCHEDULE));

/** Whether add-user.sh makes the table account (exit 0), or refuses a bad name (exit 65). */
function addUser(club: string, table: string): boolean {
  const r = spawnSync('bash', [join(ROOT, 'mosquitto', 'add-user.sh'), 'table', club, table], {
    encoding: 'utf8', env: { ...process.env, TENACE_PASSWD_FILE: join(dir, 'passwd'), TENACE_ACL_FILE: join(dir, 'acl'), TENACE_MQTT_PASSWORD: 'long enough' },
  });
  expect([0, 65], r.stderr).toContain(r.status);
  return r.status === 0;
}

const tableConfig = (club: string, table: string) => {
  const r = parseConfig(`club: { id: ${JSON.stringify(club)} }\ntable: { id: ${JSON.stringify(table)} }\n`);
  return r.ok ? [] : r.errors.filter((e) => /^(club|table)\.id$/.test(e.path));
};
const directorConfig = (club: string, table: string) => {
  const r = parseDirectorConfig(`club: { id: ${JSON.stringify(club)} }\nsession: s1\nmovement: { schedule: schedule.json }\ntables: [${JSON.stringify(table)}, "other"]\n`, dir);
  return r.ok ? [] : r.errors.filter((e) => e.path === 'club.id' || e.path === 'tables[0]');
};

const CLUBS: [string, boolean][] = [['ely', true], ['bath_north', true], ['Bath2', true], ['x'.repeat(32), true], ['bath-north', false], ['bath.north', false], ['_ely', false], ['x'.repeat(33), false]];
const TABLES: [string, boolean][] = [['7', true], ['red-1', true], ['T_12', true], ['x'.repeat(32), true], ['7.1', false], ['-1', false], ['trays', false], ['club', false], ['x'.repeat(33), false]];

describe('one rule for ids', () => {
  it.each(CLUBS)('club id "%s": %s in the table config, the director config and add-user.sh alike', (club, ok) => {
    expect(tableConfig(club, '7').length === 0).toBe(ok);
    expect(directorConfig(club, '7').length === 0).toBe(ok);
    expect(addUser(club, '7')).toBe(ok);
  });

  it.each(TABLES)('table id "%s": %s in the table config, the director config and add-user.sh alike', (table, ok) => {
    expect(tableConfig('ely', table).length === 0).toBe(ok);
    expect(directorConfig('ely', table).length === 0).toBe(ok);
    expect(addUser('ely', table)).toBe(ok);
  });

  it('bath-north is refused with the fix, naming the field', () => {
    expect(tableConfig('bath-north', '7').map((e) => `${e.path}: ${e.message}`)).toEqual([expect.stringMatching(/^club\.id: .*write "bath_north", not "bath-north"/)]);
    expect(directorConfig('bath-north', '7').map((e) => `${e.path}: ${e.message}`)).toEqual([expect.stringMatching(/^club\.id: .*write "bath_north", not "bath-north"/)]);
  });
});
