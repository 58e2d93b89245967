// The other half of group commit (issue 18): a table event's PUBACK is held until the transaction that stores it has
// committed, while mqtt.js goes on to the next message at once.
//
// mqtt.js hands over one incoming message at a time and sends its PUBACK when the handler calls back (client.js:
// work() and nextTickWork). Holding that callback until the commit made every event wait for the commit of the one
// before it: one transaction and one fsync per event, in series, which is what kept the director behind the tables.
// So the handler calls back once the message is folded in memory, and the PUBACK mqtt.js then sends is held here until
// the message's group is committed. mqtt.js has no public hook between "handled" and "acknowledged", so this wraps
// the client's own send (`_sendPacket`, mqtt 5.x); test/club/director-group-commit.test.ts fails if that changes.
import type { MqttClient } from 'mqtt';

type Send = (packet: { cmd: string; messageId?: number }, cb?: (err?: Error) => void, ...rest: unknown[]) => void;

/** The PUBACKs of a client held until their messages are durable. */
export class HeldAcks {
  private readonly waiting = new Map<number, Promise<void>>();

  constructor(client: MqttClient) {
    const c = client as unknown as { _sendPacket: Send };
    if (typeof c._sendPacket !== 'function') throw new Error('director: this mqtt.js has no _sendPacket to hold PUBACKs with; pin mqtt 5.x');
    const send = c._sendPacket.bind(client);
    c._sendPacket = (packet, cb, ...rest) => {
      const durable = packet.cmd === 'puback' && packet.messageId !== undefined ? this.waiting.get(packet.messageId) : undefined;
      if (!durable) return send(packet, cb, ...rest);
      this.waiting.delete(packet.messageId!);
      // mqtt.js goes on to the next message now; the PUBACK follows the commit, in the order the messages came (the
      // groups commit in order). A failed commit sends none: the broker keeps the message for the next start.
      // Only on the connection the message came on: after a reconnect the broker sends it again (and may have given
      // its packet id to another message), and that delivery is acknowledged in its turn.
      cb?.();
      const stream = client.stream;
      durable.then(() => { if (client.connected && client.stream === stream) send(packet, undefined, ...rest); }, () => undefined);
    };
  }

  /** Hold the PUBACK of message `messageId` until `durable` resolves (none if it rejects). */
  hold(messageId: number | undefined, durable: Promise<void>): void {
    if (messageId !== undefined) this.waiting.set(messageId, durable);
  }

  /** Forget what is held: the connection closed, and the broker sends those messages again on the next. */
  clear(): void {
    this.waiting.clear();
  }
}
