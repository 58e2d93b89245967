// A scripted protocol-v2 bridge for the driver tests: the test moves tags with arrive()/leave(), and the device
// answers ident, present (from `tags`) and since (from its event log) as PROTOCOL.md says. The transport is the
// caller's: `write` puts one encoded line on the wire (MockBinding, a pty…).
import { type Frame, decodeLine, encodeFrame, seqAfter } from '../../src/hardware/protocol.js';

export interface LoggedEvent { seq: number; kind: 'arrive' | 'leave'; reader: number; uid: string }

/** A v2 device whose state the test drives; it answers host lines given to `hostLine`. */
export class ScriptedDevice {
  seq = 0;
  tags: string[][] = [[], [], [], []];
  readonly log: LoggedEvent[] = [];

  constructor(readonly boot: number, private readonly write: (line: string) => void, private readonly uptimeS = 1) {}

  /** Send one device line with the next seq (wrapping 65535 → 1, PROTOCOL.md §4). */
  send(f: Omit<Frame, 'seq'>): void {
    this.seq = this.seq >= 65535 ? 1 : this.seq + 1;
    this.write(`${encodeFrame({ ...f, seq: this.seq } as Frame)}\n`);
  }

  /** A tag comes onto reader `r`: an arrive line, kept in the event log. */
  arrive(r: number, uid: string): void {
    this.tags[r].push(uid);
    this.send({ type: 'arrive', reader: r, uid });
    this.log.push({ seq: this.seq, kind: 'arrive', reader: r, uid });
  }

  /** A tag leaves reader `r`: a leave line, kept in the event log. */
  leave(r: number, uid: string): void {
    this.tags[r] = this.tags[r].filter((x) => x !== uid);
    this.send({ type: 'leave', reader: r, uid });
    this.log.push({ seq: this.seq, kind: 'leave', reader: r, uid });
  }

  /** Answer one host line (bytes before the '\n'); damaged lines are ignored. */
  hostLine(line: string): void {
    const r = decodeLine(line);
    if (!r.ok) return;
    const h = r.frame.seq;
    if (r.frame.type === 'since') {
      if (r.frame.boot !== this.boot) return this.send({ type: 'nak', hseq: h, code: 'gone' });
      const recs = this.log.filter((e) => seqAfter(e.seq, r.frame.after as number));
      this.send({ type: 'ack', hseq: h, cmd: 'since' });
      this.send({ type: 'replay', hseq: h, count: recs.length });
      for (const e of recs) this.send({ type: 'rec', oseq: e.seq, kind: e.kind, reader: e.reader, uid: e.uid });
      this.send({ type: 'replayend', hseq: h, count: recs.length });
      return;
    }
    this.send({ type: 'ack', hseq: h, cmd: r.frame.type });
    if (r.frame.type === 'ident') this.send({ type: 'identity', fw: '2.0.0', proto: 2, readers: 4, reset: 'power', uptimeS: this.uptimeS, boot: this.boot });
    if (r.frame.type === 'present') {
      const list = this.tags.flatMap((us, reader) => us.map((uid) => ({ reader, uid })));
      this.send({ type: 'snap', hseq: h, total: list.length });
      for (const t of list) this.send({ type: 'tag', ...t });
      this.send({ type: 'snapend', hseq: h, total: list.length, status: 'OOOO' });
    }
  }
}
