// Tray records on the broker (docs/club.md, Topics): retained on `<base>/<club>/trays/<session>/<board>`, QoS 1.
// Reading them back needs to know when every retained record has arrived: see `readRetained`.
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { formatDeal, parseDeal } from '../../cards/deal.js';
import { sessionTopics } from '../../feed/topics.js';
import type { TrayRecord } from '../types.js';

/** How to reach the broker. */
export interface BrokerOptions {
  url: string;
  username?: string;
  password?: string;
  /** Milliseconds to wait for the broker's CONNACK (default 5000). */
  connectTimeout?: number;
}

/** The broker cannot be reached or refused us: the CLI's exit 69, with the reason. */
export class BrokerUnreachable extends Error {}

const NETWORK = /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ETIMEDOUT|timeout/i;

/**
 * Connect once, without reconnecting: a command that cannot reach the broker says so at once. MQTT 5 first (a PUBACK
 * then says when the ACL refuses a record), MQTT 3.1.1 for a broker without it (the embedded aedes).
 */
export async function openBroker(o: BrokerOptions): Promise<MqttClient> {
  const base: IClientOptions = {
    clientId: `tenace-trays-${process.pid}-${Math.random().toString(16).slice(2, 8)}`,
    clean: true, reconnectPeriod: 0, connectTimeout: o.connectTimeout ?? 5000,
    username: o.username, password: o.password,
  };
  try {
    return await connectOnce(o.url, { ...base, protocolVersion: 5 });
  } catch (e) {
    const m = (e as Error).message;
    if (NETWORK.test(m) || /authori[sz]|bad user name|password/i.test(m)) throw unreachable(o.url, m);
    try {
      return await connectOnce(o.url, { ...base, protocolVersion: 4 });
    } catch (e2) {
      throw unreachable(o.url, (e2 as Error).message);
    }
  }
}

function unreachable(url: string, why: string): BrokerUnreachable {
  const hint = /authori[sz]|bad user name|password/i.test(why) ? 'check --username and --password-file' : 'is Mosquitto running there? give --broker URL';
  return new BrokerUnreachable(`cannot reach the MQTT broker at ${url} (${why}): ${hint}`);
}

function connectOnce(url: string, o: IClientOptions): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    let client: MqttClient;
    try {
      client = mqtt.connect(url, o);
    } catch (e) {
      reject(e as Error);
      return;
    }
    const timer = setTimeout(() => fail(new Error(`no answer within ${o.connectTimeout} ms (timeout)`)), (o.connectTimeout ?? 5000) + 500);
    const fail = (e: Error): void => {
      clearTimeout(timer);
      client.removeAllListeners();
      client.on('error', () => {});
      client.end(true);
      reject(e);
    };
    client.once('connect', () => { clearTimeout(timer); client.removeListener('error', fail); client.removeListener('close', closed); client.on('error', () => {}); resolve(client); });
    client.once('error', fail);
    const closed = (): void => fail(new Error('the broker closed the connection'));
    client.once('close', closed);
  });
}

/** Close the connection after everything sent has been acknowledged. */
export function closeBroker(client: MqttClient): Promise<void> {
  return new Promise((resolve) => client.end(false, {}, () => resolve()));
}

/**
 * Every retained message under `filter`, by topic. Subscribed at QoS 0 so no in-flight window holds them back; the
 * broker sends a subscription's retained messages right after its SUBACK and handles one client's packets in order,
 * so once the UNSUBACK of the same filter has come, every retained message has arrived before it.
 */
export async function readRetained(client: MqttClient, filter: string): Promise<Map<string, Buffer>> {
  const got = new Map<string, Buffer>();
  const onMessage = (topic: string, payload: Buffer, packet: { retain?: boolean }): void => {
    if (!packet.retain) return;
    if (payload.length === 0) got.delete(topic);
    else got.set(topic, payload);
  };
  client.on('message', onMessage);
  try {
    const grants = await client.subscribeAsync(filter, { qos: 0 });
    await client.unsubscribeAsync(filter);
    if (grants.some((g) => g.qos >= 128)) throw new Error(`the broker refused to let us read ${filter} (ACL): use a director's --username`);
  } finally {
    client.removeListener('message', onMessage);
  }
  return got;
}

/** A retained payload read as a tray record, or why it is not one. */
export function parseTrayRecord(payload: Buffer | string): TrayRecord | { invalid: string } {
  let v: unknown;
  try {
    v = JSON.parse(payload.toString());
  } catch {
    return { invalid: 'the payload is not JSON' };
  }
  const r = v as Partial<TrayRecord>;
  if (!r || typeof r !== 'object' || r.type !== 'tenace.tray' || typeof r.hands !== 'string' || typeof r.board !== 'number') {
    return { invalid: 'the payload is not a tenace.tray record' };
  }
  return r as TrayRecord;
}

/** The tray records of a session on the broker, by board. Payloads that are not records are returned apart. */
export async function readTrayRecords(client: MqttClient, club: string, session: string, base?: string): Promise<{ records: Map<number, TrayRecord>; invalid: { topic: string; why: string }[] }> {
  const t = sessionTopics(club, session, base);
  const raw = await readRetained(client, t.traysFilter);
  const records = new Map<number, TrayRecord>();
  const invalid: { topic: string; why: string }[] = [];
  for (const [topic, payload] of raw) {
    const board = Number(topic.slice(topic.lastIndexOf('/') + 1));
    const r = parseTrayRecord(payload);
    if ('invalid' in r) invalid.push({ topic, why: r.invalid });
    else records.set(Number.isInteger(board) ? board : r.board, r);
  }
  return { records, invalid };
}

/** Publish one retained record at QoS 1; resolves on the broker's PUBACK (rejects when it refuses it). */
export async function publishRecord(client: MqttClient, topic: string, record: TrayRecord): Promise<void> {
  await client.publishAsync(topic, JSON.stringify(record), { qos: 1, retain: true });
}

/** Two PBN deals hold the same hands, however each is written (first seat, order). */
export function sameHands(a: string, b: string): boolean {
  try {
    return formatDeal(parseDeal(a), 0) === formatDeal(parseDeal(b), 0);
  } catch {
    return a.trim() === b.trim();
  }
}
