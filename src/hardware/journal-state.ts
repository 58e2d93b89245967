// What a table log (the journal of TableEvents) tells a restarting driver: the cards still on the
// table, and where each bridge's ordered stream was when the log ends.
import type { Seat } from '../cards/seat.js';
import type { EventSource } from '../formats/table-log.js';
import type { PresenceEntry, ResumePoint } from './driver-types.js';

/**
 * The cards on the table according to a table log (place without a later lift), as seat-level
 * presence entries for `initialPresence`. Use it on restart with the journal's events.
 */
export function presenceFromEvents(events: Iterable<unknown>): PresenceEntry[] {
  const on = new Map<string, PresenceEntry & { n: number }>();
  for (const raw of events) {
    if (typeof raw !== 'object' || raw === null) continue;
    const e = raw as { type?: unknown; seat?: unknown; card?: unknown; tag?: unknown };
    if ((e.type !== 'place' && e.type !== 'lift') || typeof e.seat !== 'string') continue;
    const seat = e.seat as Seat;
    let k: string;
    let entry: PresenceEntry;
    if (typeof e.card === 'string') {
      k = `${seat}|card:${e.card}`;
      entry = { seat, card: e.card };
    } else if (typeof e.tag === 'string') {
      k = `${seat}|tag:${e.tag}`;
      entry = { seat, tag: e.tag };
    } else continue;
    const cur = on.get(k);
    if (e.type === 'place') {
      if (cur) cur.n++;
      else on.set(k, { ...entry, n: 1 });
    } else if (cur) {
      if (--cur.n <= 0) on.delete(k);
    }
  }
  const out: PresenceEntry[] = [];
  for (const v of on.values()) {
    const { n, ...entry } = v;
    for (let i = 0; i < n; i++) out.push(entry as PresenceEntry);
  }
  return out;
}

/**
 * The resume point of each bridge in a table log: the `src` of the last place/lift from it. Give
 * it to the driver on restart (`resume`), so that it asks for exactly the lines not journaled.
 */
export function resumePoints(events: Iterable<unknown>): Map<string, ResumePoint> {
  const out = new Map<string, ResumePoint>();
  for (const raw of events) {
    const src = (raw as { src?: Partial<EventSource> } | null)?.src;
    if (typeof src !== 'object' || src === null || typeof src.bridge !== 'string') continue;
    if (!Number.isInteger(src.boot) || !Number.isInteger(src.seq)) continue;
    out.set(src.bridge, { boot: src.boot!, seq: src.seq! });
  }
  return out;
}
