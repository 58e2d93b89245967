// A room's bridge logs in to the central broker with its own account (mosquitto/add-user.sh room NAME), under the
// shipped ACL: the bridge of mosquitto/room.conf connects with it, its tables' events reach the director at the
// centre, the director's assignments reach the room, and the account itself cannot forge what only the director
// writes (assignments, tray records, standings).
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { type Broker, client, run, sleep, startBroker, uid, waitFor } from '../feed/broker.js';

const ROOT = join(import.meta.dirname, '..', '..');
const PASSWORD = 'room password 1';

/** A shipped file with some lines replaced; each must still be there, or the test says which to update. */
function shipped(file: string, lines: [RegExp, string][]): string {
  let conf = readFileSync(join(ROOT, 'mosquitto', file), 'utf8');
  for (const [re, to] of lines) {
    if (!re.test(conf)) throw new Error(`mosquitto/${file} has no line matching ${re}: update this test`);
    conf = conf.replace(re, to);
  }
  return conf.replace(/^log_(dest|type) .*$/gm, '');
}

describe('a room account at the central broker (add-user.sh room, mosquitto/acl)', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => { for (const f of cleanup.reverse()) await f().catch(() => undefined); });

  it('the bridge logs in with it and both directions cross; the account cannot write the director\'s topics', async () => {
    const club = uid('c').replace(/[^A-Za-z0-9_]/g, '_');
    // The accounts, as an installer makes them: the shipped ACL, then the script's blocks.
    const dir = mkdtempSync(join(tmpdir(), 'tenace-centre-'));
    copyFileSync(join(ROOT, 'mosquitto', 'acl'), join(dir, 'acl'));
    const env = { TENACE_PASSWD_FILE: join(dir, 'passwd'), TENACE_ACL_FILE: join(dir, 'acl'), TENACE_MQTT_PASSWORD: PASSWORD };
    run(join(ROOT, 'mosquitto', 'add-user.sh'), ['room', 'room-a', club], env);
    run(join(ROOT, 'mosquitto', 'add-user.sh'), ['director', 'dir', club], env);
    run(join(ROOT, 'mosquitto', 'add-user.sh'), ['director', 'federation'], env);
    const centre: Broker = await startBroker(shipped('central.conf', [
      [/^password_file .*$/m, 'password_file {dir}/passwd'], [/^acl_file .*$/m, 'acl_file {dir}/acl'],
      [/^persistence_location .*$/m, 'persistence_location {dir}/'], [/^listener 1883$/m, 'listener {port} 127.0.0.1'],
    ]), { dir });
    cleanup.push(() => centre.dispose());

    const room: Broker = await startBroker(shipped('room.conf', [
      [/^allow_anonymous false$/m, 'allow_anonymous true'], [/^password_file .*$/m, ''], [/^acl_file .*$/m, ''],
      [/^persistence_location .*$/m, 'persistence_location {dir}/'], [/^listener 1883$/m, 'listener {port} 127.0.0.1'],
      [/^address .*$/m, `address 127.0.0.1:${centre.port}`], [/^remote_username .*$/m, 'remote_username room-a'],
      [/^remote_password .*$/m, `remote_password ${PASSWORD}`],
    ]));
    cleanup.push(() => room.dispose());

    const open: MqttClient[] = [];
    cleanup.push(async () => { for (const c of open) await c.endAsync(true); });
    const login = async (url: string, opts = {}): Promise<MqttClient> => { const c = await client(url, opts); open.push(c); return c; };
    const director = await login(centre.url, { username: 'dir', password: PASSWORD });
    const atCentre: string[] = [];
    director.on('message', (topic, payload) => atCentre.push(`${topic} ${payload.toString()}`));
    await director.subscribeAsync(`tenace/${club}/#`, { qos: 1 });
    const table = await login(room.url);
    const atRoom: string[] = [];
    table.on('message', (topic, payload) => atRoom.push(`${topic} ${payload.toString()}`));
    await table.subscribeAsync(`tenace/${club}/5/assignment`, { qos: 1 });

    // Out: a table's journal event reaches the director once the bridge is in (it retries every 5 s).
    const event = `tenace/${club}/5/director/event`;
    await waitFor(async () => {
      await table.publishAsync(event, 'e', { qos: 1 });
      await sleep(300);
      return atCentre.includes(`${event} e`);
    }, 20_000, 'the room bridge logged in at the centre, carrying a table event');
    // In: the director's assignment reaches the room's table.
    const assignment = `tenace/${club}/5/assignment`;
    await director.publishAsync(assignment, 'round-2', { qos: 1, retain: true });
    await waitFor(() => atRoom.includes(`${assignment} round-2`), 10_000, 'the assignment at the room');

    // The room's account itself, logged in as a client: it may write a table's topics, not the director's.
    const forger = await login(centre.url, { username: 'room-a', password: PASSWORD, clientId: 'forger' });
    await forger.publishAsync(`tenace/${club}/5/status`, 'online', { qos: 1 });
    // Mosquitto answers a PUBLISH the ACL refuses with "Not authorized" (MQTT 5 reason 0x87) and drops it.
    for (const t of [assignment, `tenace/${club}/trays/s1/5`, `tenace/${club}/club/s1/standings`]) {
      await expect(forger.publishAsync(t, 'forged', { qos: 1 }), t).rejects.toThrow(/Not authorized/);
    }
    await waitFor(() => atCentre.includes(`tenace/${club}/5/status online`), 5000, 'a table topic written by the room account');
    await sleep(300);
    expect(atCentre.filter((m) => m.endsWith(' forged'))).toEqual([]);
    // Nor another club's tables: a federation-wide director sees nothing from this room's account there.
    const federation = await login(centre.url, { username: 'federation', password: PASSWORD });
    const elsewhere: string[] = [];
    federation.on('message', (topic) => elsewhere.push(topic));
    await federation.subscribeAsync('tenace/otherclub/#', { qos: 1 });
    await expect(forger.publishAsync('tenace/otherclub/5/director/event', 'e', { qos: 1 })).rejects.toThrow(/Not authorized/);
    await forger.publishAsync(`tenace/${club}/6/director/event`, 'e', { qos: 1 });
    await waitFor(() => atCentre.includes(`tenace/${club}/6/director/event e`), 5000, 'the same write in its own club');
    await sleep(300);
    expect(elsewhere).toEqual([]);
  }, 60_000);
});
