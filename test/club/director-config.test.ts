// The director's config (src/club/director/config.ts): schema-checked like `tenace run`'s, each problem named by its
// field with the fix, exit 78 for a bad one; config/club.schema.json is what `tenace director --schema` prints.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDirectorConfig, publishedDirectorSchemaText } from '../../src/club/director/config.js';
import { SCHEDULE } from './director-rig.js';
import { startCli } from '../cli/spawn-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'tenace-director-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'schedule.json'), JSON.stringify(SCHEDULE));

const ROOT = join(import.meta.dirname, '..', '..');

const errorsOf = (text: string) => {
  const r = parseDirectorConfig(text, dir);
  return r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
};

describe('the director config', () => {
  it('a schedule file gives the movement, the tables default to "1".."N" and the SQLite path resolves beside the config', () => {
    const r = parseDirectorConfig('club: { id: ely }\nsession: 2026\nmovement: { schedule: schedule.json }\n', dir);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config).toMatchObject({
      club: { id: 'ely' }, session: '2026', variant: 'duplicate-whist', tables: ['1', '2'],
      movement: { name: 'test-cross', tables: 2, schedule: join(dir, 'schedule.json') },
      mqtt: { url: 'mqtt://127.0.0.1:1883', baseTopic: 'tenace' }, store: { url: `sqlite:${join(dir, 'tenace-director.db')}` },
      http: { enabled: true, host: '127.0.0.1', port: 8090 }, embargo: 'tray-complete',
    });
  });

  it('names the field and the fix for each problem', () => {
    expect(errorsOf('club: { id: ely }\nmovement: { schedule: schedule.json }\n')).toEqual([expect.stringMatching(/^session: is required; it must be the session name/)]);
    expect(errorsOf('club: { id: ely }\nsession: s\nmovement: { name: mitchel, tables: 4 }\n')).toEqual([expect.stringMatching(/^movement.name: "mitchel" is not a movement: did you mean "mitchell"\?/)]);
    expect(errorsOf('club: { id: ely }\nsession: s\nmovement: { name: mitchell }\n')).toEqual([expect.stringMatching(/^movement.tables: is required/)]);
    expect(errorsOf('club: { id: ely }\nsession: s\nmovement: { schedule: nope.json }\n')).toEqual([expect.stringMatching(/^movement.schedule: .*nope.json does not exist: write it with tenace movement/)]);
    expect(errorsOf('club: { id: ely }\nsession: s\nmovement: { schedule: schedule.json }\ntables: [a, b, c]\n')).toEqual(['tables: lists 3 table ids but movement.tables is 2: give one id per table, in schedule order']);
    expect(errorsOf('club: { id: ely }\nsession: s\nmovement: { schedule: schedule.json }\ntables: [a, trays]\n')).toEqual([expect.stringMatching(/^tables\[1\]: "trays" is reserved/)]);
    expect(errorsOf('club: { id: ely }\nsession: s\nmovement: { schedule: schedule.json }\ntables: [a, a]\n')).toEqual(['tables[1]: repeats "a" of tables[0]: give each table its own id']);
    expect(errorsOf('club: { id: ely }\nsession: s\nmovement: { schedule: schedule.json }\nstore: { url: "mysql://x" }\n')).toEqual([expect.stringMatching(/^store.url: must be "sqlite:PATH" .* or "postgres:\/\/user@host:5432\/database" \(got "mysql:\/\/x"\)/)]);
    expect(errorsOf('club: { id: ely }\nsession: s\nmovement: { schedule: schedule.json }\nstroe: { url: x }\n')).toEqual(['stroe: is not a known setting: did you mean "store"?']);
    expect(errorsOf('club: { id: ely }\nsession: s\nmovement: { schedule: schedule.json }\nscoring: { method: imps }\n')).toEqual([expect.stringMatching(/^scoring.method: must be one of average, matchpoints, cross-imps, butler/)]);
    expect(errorsOf('club: { id: "a/b" }\nsession: s\nmovement: { schedule: schedule.json }\n')).toEqual([expect.stringMatching(/^club.id: must be the club's short id.*use 1-32 letters, digits or "_"/)]);
  });

  it('cluster: the defaults of one of several instances, and a heartbeat slower than half the lease refused', () => {
    const r = parseDirectorConfig('club: { id: ely }\nsession: s\nmovement: { schedule: schedule.json }\ncluster:\n', dir);
    expect(r.ok && r.config.cluster).toEqual({ partitions: 16, leaseSeconds: 10, heartbeatSeconds: 2 });
    expect(errorsOf('club: { id: ely }\nsession: s\nmovement: { schedule: schedule.json }\ncluster: { leaseSeconds: 4, heartbeatSeconds: 3 }\n'))
      .toEqual([expect.stringMatching(/^cluster.heartbeatSeconds: is 3 s against a lease of 4 s: make it at most half the lease/)]);
    expect(errorsOf('club: { id: ely }\nsession: s\nmovement: { schedule: schedule.json }\ncluster: { instance: "a b" }\n'))
      .toEqual([expect.stringMatching(/^cluster.instance: must name this instance/)]);
    expect(errorsOf('club: { id: ely }\nsession: s\nmovement: { schedule: schedule.json }\ncluster: { partitions: 0 }\n'))
      .toEqual([expect.stringMatching(/^cluster.partitions: must be the number of partitions/)]);
  });

  it('Dup. IV.11 "a trump suit may be declared and no trump turned": trump for the sitting, refused where no trump is turned', () => {
    const r = parseDirectorConfig('club: { id: ely }\nsession: s\nmovement: { schedule: schedule.json }\ntrump: H\n', dir);
    expect(r.ok && r.config.trump).toBe('H');
    expect(errorsOf('club: { id: ely }\nsession: s\nmovement: { schedule: schedule.json }\ntrump: hearts\n')).toEqual([expect.stringMatching(/^trump: must be one of S, H, D, C \(got "hearts"\)/)]);
    expect(errorsOf('club: { id: ely }\nsession: s\nvariant: bridge\nmovement: { schedule: schedule.json }\ntrump: H\n'))
      .toEqual(['trump: declares a trump suit for the sitting, but in bridge no trump is turned to replace (the auction names it): leave trump out']);
    // Memory Duplicate: "No trump is turned in Memory Duplicate; one suit being declared trumps for the entire sitting."
    expect(errorsOf('club: { id: ely }\nsession: s\nmovement: { name: memory-duplicate, tables: 1 }\n'))
      .toEqual([expect.stringMatching(/^trump: is required for memory-duplicate: "no trump is turned in Memory Duplicate/)]);
    expect(errorsOf('club: { id: ely }\nsession: s\nmovement: { name: memory-duplicate, tables: 1 }\ntrump: S\n')).toEqual([]);
  });

  it('config/club.schema.json is in sync with the schema object (regenerate: tenace director --schema > config/club.schema.json)', () => {
    expect(readFileSync(join(ROOT, 'config', 'club.schema.json'), 'utf8')).toBe(publishedDirectorSchemaText());
  });

  it('tenace director exits 78 for a bad config, naming the file, the field and the fix', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'club: { id: ely }\nsession: s\nmovement: { schedule: schedule.json }\nhttp: { port: 99999 }\n');
    const run = startCli(['director', '--config', file]);
    try {
      expect(await run.exited).toBe(78);
      expect(run.err()).toContain(`${file}: http.port: must be a TCP port from 1 to 65535`);
    } finally {
      await run.dispose();
    }
  });

  it('tenace director --check says what the config sets up, --db replacing the store, and exits 0', async () => {
    const file = join(dir, 'good.yaml');
    writeFileSync(file, 'club: { id: ely }\nsession: s\nmovement: { schedule: schedule.json }\ntables: [red, blue]\n');
    const run = startCli(['director', '--config', file, '--db', join(dir, 'x.db'), '--check']);
    try {
      expect(await run.exited).toBe(0);
      expect(run.out()).toBe(`ok: club ely session s, test-cross on 2 tables (red, blue), duplicate-whist, mqtt mqtt://127.0.0.1:1883 under tenace/ely/, store sqlite:${join(dir, 'x.db')}\n`);
    } finally {
      await run.dispose();
    }
  });
});
