// The driver's health reports: each reader's status (from `hb`, `snapend`, `err reader`, or
// "offline" when the bridge is lost) and the bridge's, as `reader-status` and `bridge-status`
// events. A reader's status is reported when it changes, not on every heartbeat.
import type { DeviceInfo } from './bridge-handshake.js';
import type { BridgeState, BridgeStatusEvent, ReaderStatus, ReaderStatusEvent } from './driver-types.js';
import { MAX_READERS } from './protocol.js';
import type { SeatMap } from './seat-map.js';

const STATE_CHAR: Record<string, ReaderStatus> = { O: 'ok', W: 'warming', F: 'faulted' };

/** What StatusReports needs from its driver. */
export interface StatusHost {
  readonly bridge: string;
  readonly path: string;
  readonly seatMap: SeatMap;
  /** The device's last hello/identity, named in bridge reports. */
  device(): DeviceInfo | undefined;
  readerStatus(ev: ReaderStatusEvent): void;
  bridgeStatus(ev: BridgeStatusEvent): void;
}

/** The last status reported for each reader and for the bridge. */
export class StatusReports {
  private readonly state: (ReaderStatus | undefined)[] = new Array(MAX_READERS).fill(undefined);
  /** The fault code of each faulted reader (`err reader`), kept while heartbeats say F. */
  private readonly code: (string | undefined)[] = new Array(MAX_READERS).fill(undefined);
  /** The last bridge status reported. */
  lastBridge?: BridgeState;

  constructor(private readonly host: StatusHost) {}

  /** Last known status per reader index (undefined: not reported yet). */
  readers(): (ReaderStatus | undefined)[] {
    return [...this.state];
  }

  /** A status word (hb, snapend): one letter per reader; a faulted reader keeps its fault code. */
  word(status: string): void {
    for (let r = 0; r < status.length; r++) {
      const st = STATE_CHAR[status[r]];
      this.reader(r, st, st === 'faulted' ? this.code[r] : undefined);
    }
  }

  /** The fault code last reported for a reader (`err reader`), if any. */
  faultOf(reader: number): string | undefined {
    return this.code[reader];
  }

  /** Every reader reported so far is offline (the bridge is lost or says nothing). */
  readersOffline(readers: number): void {
    for (let r = 0; r < readers; r++) {
      if (this.state[r] !== undefined) this.reader(r, 'offline');
    }
  }

  /** Reports a reader's status if it changed. */
  reader(reader: number, status: ReaderStatus, code?: string): void {
    if (this.state[reader] === status && this.code[reader] === code) return;
    this.state[reader] = status;
    this.code[reader] = code;
    const ev: ReaderStatusEvent = { type: 'reader-status', bridge: this.host.bridge, reader, status };
    const seat = this.host.seatMap.seatOf(this.host.bridge, reader);
    if (seat) ev.seat = seat;
    if (code) ev.code = code;
    this.host.readerStatus(ev);
  }

  /** Reports the bridge's status, with the device's identity when known. */
  bridge(status: BridgeState, detail?: string): void {
    this.lastBridge = status;
    const ev: BridgeStatusEvent = { type: 'bridge-status', bridge: this.host.bridge, path: this.host.path, status };
    if (detail) ev.detail = detail;
    const device = this.host.device();
    if (device) {
      ev.fw = device.fw;
      ev.proto = device.proto;
      ev.readers = device.readers;
    }
    this.host.bridgeStatus(ev);
  }
}
