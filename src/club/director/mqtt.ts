// The director's MQTT side: the connection with its persistent session and held PUBACKs, the subscriptions, and the
// publishes (fire-and-forget, retained latest-only, refused over the broker's size limit).
import type { IClientOptions } from 'mqtt';
import { connectMqtt } from '../../broker/connect.js';
import { tableTopics } from '../../feed/topics.js';
import { MAX_PACKET_BYTES } from './intake.js';
import { type DirectorState, isLeader, followed } from './state.js';
import { durable, enqueue } from './commit.js';
import { HeldAcks } from './held-acks.js';
import { handle } from './messages.js';
import { requestEvents } from './gap-fill.js';
import { releasedMessage } from './results.js';
import { flushNow } from './standings.js';

/** Connect to the broker on a persistent session, each table event's PUBACK held until its commit. */
export function connect(st: DirectorState): void {
  const o: IClientOptions = {
    clientId: st.clientId,
    // A persistent session: what the tables publish while the director is down waits for it at the broker (a week,
    // longer than any session, on MQTT 5; on MQTT 3.1.1 a persistent session lasts until the broker drops it).
    // Each QoS 1 message's PUBACK waits for its commit (handleMessage, below).
    clean: false,
    ...(st.c.mqtt.protocolVersion === 4
      ? { protocolVersion: 4 as const }
      // A cluster instance's tables go to another instance when it dies, which asks the tables for what it missed:
      // its own queue need only outlive a restart.
      // maximumPacketSize: the broker drops a larger message for the director instead of sending it.
      : { protocolVersion: 5 as const, properties: { sessionExpiryInterval: st.c.cluster ? Math.max(60, 6 * st.c.cluster.leaseSeconds) : 7 * 24 * 3600, maximumPacketSize: MAX_PACKET_BYTES } }),
    keepalive: st.c.mqtt.keepalive,
    reconnectPeriod: 1000,
    // As the table's feed: no cache of 65,536 packet-id Buffers (6 MB of heap) in mqtt-packet.
    writeCache: false,
    username: st.c.mqtt.username,
    password: st.opts.password ?? st.c.mqtt.password,
  };
  // mqtt.js's entry loads its WebSocket, SOCKS and TLS transports whatever the URL: about 5 MB of an idle director
  // that connects over plain TCP (issue 18, goal 3). Other URLs still go through mqtt.connect.
  const client = connectMqtt(st.c.mqtt.url, o);
  st.client = client;
  const held = new HeldAcks(client);
  client.on('close', () => held.clear());
  // Every QoS 1 message comes through handleMessage on either protocol (on MQTT 5 after customHandleAcks, which is
  // left to answer 0). It returns once the message is folded in memory, and its PUBACK is held until its commit.
  client.handleMessage = (packet, callback) => {
    if (packet.cmd !== 'publish' || packet.qos === 0) return callback();
    enqueue(st, () => handle(st, packet.topic, packet.payload as Buffer)).then(() => {
      held.hold(packet.messageId, durable(st));
      callback();
    }, (err: Error) => callback(err));
  };
  client.on('connect', (ack) => {
    // Small messages (PUBACKs, standings) one after another: Nagle would hold each for the broker's delayed ACK.
    (client.stream as { setNoDelay?: (on: boolean) => void } | undefined)?.setNoDelay?.(true);
    st.log.info({ url: st.c.mqtt.url, sessionPresent: ack.sessionPresent }, 'director: connected');
    const p = st.prefix;
    const filters = st.owned
      ? [st.topics.traysFilter, ...(isLeader(st) ? [decisionFilter(st)] : []), ...followed(st).flatMap((ts) => tableFilters(st, ts.id))]
      : [`${p}+/director/event`, `${p}+/status`, `${p}+/response/events`, `${p}+/director`, decisionFilter(st), st.topics.traysFilter];
    mqttSubscribe(st, filters);
    publishAll(st);
    for (const ts of followed(st)) {
      ts.request = null;
      requestEvents(st, ts);
    }
  });
  // QoS 0 messages take no ack; everything the director needs comes at QoS 1 through customHandleAcks.
  client.on('message', (topic, message, packet) => {
    if (packet.qos === 0) void enqueue(st, () => handle(st, topic, message)).catch(() => undefined);
  });
  client.on('error', (err) => st.log.warn({ err: err.message }, 'director: mqtt error'));
  client.on('offline', () => st.log.warn('director: broker offline; reconnecting'));
}

/** The topic filter of the director's decisions (club/<session>/request/+). */
export function decisionFilter(st: DirectorState): string {
  return `${st.prefix}club/${st.c.session}/request/+`;
}

/** The topics of one table the director follows. */
export function tableFilters(st: DirectorState, id: string): string[] {
  return ['director/event', 'status', 'response/events', 'director'].map((t) => `${st.prefix}${id}/${t}`);
}

/** Subscribe at QoS 1 to the filters, when connected. */
export function mqttSubscribe(st: DirectorState, filters: string[]): void {
  if (filters.length === 0 || !st.client?.connected) return;
  st.client.subscribe(filters, { qos: 1 }, (err) => {
    if (err && !st.stopped) st.log.error({ err }, 'director: subscribe failed');
  });
}

/** Unsubscribe from the filters, when connected. */
export function mqttUnsubscribe(st: DirectorState, filters: string[]): void {
  if (filters.length === 0 || !st.client?.connected) return;
  st.client.unsubscribe(filters, (err) => {
    if (err && !st.stopped) st.log.warn({ err }, 'director: unsubscribe failed');
  });
}

/** Publish at QoS 1, fire-and-forget (nothing in the message path may wait for a PUBACK of ours). */
export function pub(st: DirectorState, topic: string, body: unknown, retain: boolean): void {
  const c = st.client;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  if (!c || st.failed || tooLarge(st, topic, text)) return;
  c.publish(topic, text, { qos: 1, retain }, (err) => {
    if (err && !st.stopped) st.log.warn({ err: err.message, topic }, 'director: publish failed');
  });
}

/**
 * Publish a retained message of which only the latest counts (standings, snapshot, released trays): while
 * LATEST_IN_FLIGHT are in flight, a newer one waits and replaces any other waiting. A director that publishes faster
 * than the broker acknowledges then holds one message a topic, not a queue that grows without bound. Two in flight,
 * not one: at a round's end the event loop is busy folding the tables' events and reads a PUBACK late, and a
 * standings message held for it was 1.5-3 ms later to the spectators (issue 18).
 */
export function pubLatest(st: DirectorState, topic: string, body: string): void {
  const c = st.client;
  if (!c || st.failed || tooLarge(st, topic, body)) return;
  let slot = st.latest.get(topic);
  if (!slot) st.latest.set(topic, slot = { flying: 0, next: null });
  if (slot.flying >= LATEST_IN_FLIGHT) {
    slot.next = body;
    return;
  }
  slot.flying++;
  const mine = slot;
  c.publish(topic, body, { qos: 1, retain: true }, (err) => {
    if (err && !st.stopped) st.log.warn({ err: err.message, topic }, 'director: publish failed');
    mine.flying--;
    const next = mine.next;
    mine.next = null;
    if (mine.flying === 0 && next === null) st.latest.delete(topic);
    // The broker takes a connection's messages in order: the last sent is the one it retains.
    if (next !== null && !st.stopped) pubLatest(st, topic, next);
  });
}

/** How many messages of one latest-only topic may await their PUBACK at once (pubLatest). */
export const LATEST_IN_FLIGHT = 2;

/**
 * A message over the broker's message_size_limit is not sent: Mosquitto would drop the connection, and mqtt.js would
 * send the message again on the next one, for ever. Said once a topic, with the setting to change.
 */
export function tooLarge(st: DirectorState, topic: string, body: string): boolean {
  const bytes = Buffer.byteLength(body);
  if (bytes <= st.c.mqtt.maxMessageBytes) return false;
  const where = topic.slice(st.prefix.length).replace(/\/\d+$/, '/<n>');
  if (!st.warned.has(`size:${where}`)) {
    st.warned.add(`size:${where}`);
    st.log.error({ topic, bytes, maxMessageBytes: st.c.mqtt.maxMessageBytes },
      'director: a message is larger than mqtt.maxMessageBytes and is not published; raise the broker\'s message_size_limit and mqtt.maxMessageBytes together (mosquitto/central.conf has 8388608)');
  }
  return true;
}

/** Publish the retained state again after a (re)connect: the tables' assignments and, as leader, the session's topics. */
export function publishAll(st: DirectorState): void {
  for (const ts of followed(st)) {
    const a = st.assignments.get(ts.id);
    if (a) pub(st, tableTopics(st.c.club.id, a.table, st.c.mqtt.baseTopic).assignment, a, true);
  }
  if (isLeader(st)) publishSessionTopics(st);
}

/** The session's own retained topics, published by the one instance that holds partition 0. */
export function publishSessionTopics(st: DirectorState): void {
  pub(st, st.topics.schedule, st.schedule, true);
  for (const r of st.records.values()) pub(st, st.topics.tray(r.board), r, true);
  pubLatest(st, st.topics.released, JSON.stringify(releasedMessage(st)));
  st.standingsDirty = true;
  flushNow(st);
}

/** Answer a decision on club/<session>/response/<cmd>. */
export function respond(st: DirectorState, cmd: string, body: unknown): void {
  pub(st, `${st.prefix}club/${st.c.session}/response/${cmd}`, body, false);
}
