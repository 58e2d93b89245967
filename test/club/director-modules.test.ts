// Issue 18, goal 3 (an idle director ≤ 80 MB): the director connects through src/broker/connect.ts, not mqtt.js's
// entry, which loads its WebSocket, SOCKS and TLS transports (ws, socks, ip-address) whatever the URL: about 7 MB of
// an idle 30-table director's RSS. A static import of 'mqtt' anywhere under `tenace director` brings them back.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, staticGraph, valueImports } from '../import-graph.js';
import { BROKER } from './director-rig.js';

describe('tenace director: the modules it loads', () => {
  it('imports no value from mqtt.js\'s entry; it connects through src/broker/connect.ts', () => {
    const graph = new Set(staticGraph(join(root, 'src/cli/director.ts')));
    expect(graph.has('src/club/director/mqtt.ts')).toBe(true);
    expect(graph.has('src/broker/connect.ts')).toBe(true);
    expect(graph.has('mqtt')).toBe(false);
  });

  it('the walk sees a value import of mqtt, and skips a type-only one', () => {
    expect(valueImports(join(root, 'src/club/trays/broker.ts'))).toContain('mqtt');
    expect(valueImports(join(root, 'src/club/director/mqtt.ts'))).not.toContain('mqtt');
  });

  it('connectMqtt on a plain mqtt:// URL connects without loading ws or socks', () => {
    const code = `
      import { createRequire } from 'node:module';
      const { connectMqtt } = await import(${JSON.stringify(join(root, 'src/broker/connect.ts'))});
      const c = connectMqtt(${JSON.stringify(BROKER)}, { protocolVersion: 5, clean: true });
      await new Promise((ok, no) => { c.once('connect', ok); setTimeout(() => no(new Error('no connect')), 5000); });
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      c.end(true);
      process.stdout.write(JSON.stringify(loaded.filter((f) => /[/]node_modules[/](ws|socks|ip-address)[/]/.test(f)).length));
    `;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8', timeout: 20_000 });
    expect(out).toBe('0');
  }, 30_000);
});
