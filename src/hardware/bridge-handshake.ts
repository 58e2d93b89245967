// The session handshake (PROTOCOL.md §1, §12): which bridge this is and which protocol it speaks,
// before a line of its stream is interpreted. The driver sends `ident` until a valid identity (or a
// hello) comes; a hello/identity of another protocol version is reported once ("incompatible"),
// its stream is not interpreted, and `ident` is asked again every `incompatibleRetryMs` until the
// bridge announces version 2. Identified, the stream is picked up where it was (StreamResync).
//
// A v1 device's hello has no boot, so it fails the v2 grammar; `announcedProto` still reads its
// version from a line with a good checksum, and the driver hands it here as foreign. The port stays
// open meanwhile: the next valid v2 hello/identity makes the bridge usable again (then `since`
// recovers what was missed).
import type { CommandChannel } from './command-channel.js';
import type { BridgeState, DriverStats, Logger } from './driver-types.js';
import { PROTOCOL_VERSION } from './protocol.js';
import type { StreamResync } from './stream-resync.js';

/** What the device says of itself in its hello or identity. */
export interface DeviceInfo {
  fw: string;
  proto: number;
  readers: number;
  reset: string;
  uptimeS?: number;
  boot?: number;
}

/** What a Handshake needs from its driver. */
export interface HandshakeHost {
  readonly bridge: string;
  readonly log: Logger;
  readonly stats: DriverStats;
  readonly stream: StreamResync;
  readonly commands: CommandChannel;
  /** Poll settings sent with `set` after every hello/identification. */
  readonly settings?: { pollMs: number; misses: number };
  readonly timing: { commandTimeoutMs: number; commandAttempts: number; incompatibleRetryMs: number };
  /** True while the port is open. */
  isOpen(): boolean;
  setBridgeStatus(status: BridgeState, detail?: string): void;
  /** Reports every reader offline (the bridge can no longer be read). */
  readersOffline(): void;
}

/** One driver's identification of its bridge. */
export class Handshake {
  /** The bridge said, in our protocol, who it is: its stream may be interpreted. */
  identified = false;
  /** The device's last hello/identity. */
  device?: DeviceInfo;
  /** The bridge announced another protocol version and has not announced v2 since. */
  private incompatible = false;
  private identTimer?: NodeJS.Timeout;

  constructor(private readonly host: HandshakeHost) {}

  /** Forgets the identification (the port opened or closed: the next bridge must say who it is). */
  forget(): void {
    this.identified = false;
    this.stopAsking();
  }

  /** Stops asking for an identity. */
  stopAsking(): void {
    clearTimeout(this.identTimer);
    this.identTimer = undefined;
  }

  /** A hello/identity of a protocol this driver does not implement: report it, keep listening. */
  onForeign(proto: number, fw: string): void {
    this.host.stats.foreign++;
    if (this.identified) this.host.readersOffline();
    this.identified = false;
    this.host.stream.reset();
    this.stopAsking();
    if (!this.incompatible) {
      this.incompatible = true;
      const detail = `the bridge speaks protocol ${proto} (firmware ${fw}); this daemon implements ${PROTOCOL_VERSION}. Its lines are ignored until it announces protocol ${PROTOCOL_VERSION}.`;
      this.host.log.error({ bridge: this.host.bridge, proto, fw }, detail);
      this.host.setBridgeStatus('incompatible', detail);
    }
    // A stray foreign line must not cost seconds of play: ask at once, then every few seconds.
    this.identify(this.host.timing.commandTimeoutMs);
  }

  /** The bridge speaks our protocol (again): say so once if it was reported incompatible. */
  private compatibleAgain(): void {
    if (!this.incompatible) return;
    this.incompatible = false;
    this.host.log.info({ bridge: this.host.bridge }, `the bridge announces protocol ${PROTOCOL_VERSION} again`);
  }

  /** A valid v2 hello: the device has reset; it is identified, and its new boot followed. */
  onHello(f: { fw: string; proto: number; readers: number; reset: string; boot: number }): void {
    this.device = { fw: f.fw, proto: f.proto, readers: f.readers, reset: f.reset, boot: f.boot };
    this.compatibleAgain();
    this.host.log.info({ bridge: this.host.bridge, fw: f.fw, readers: f.readers, reset: f.reset, boot: f.boot }, 'bridge hello (device reset)');
    this.stopAsking();
    this.identified = true;
    this.host.setBridgeStatus('online', `reset: ${f.reset}`);
    this.sendSettings();
    this.host.stream.newBoot(f.boot, true);
  }

  /** A valid v2 identity (the answer to `ident`): identified, the stream picked up where it was. */
  onIdentity(f: { fw: string; proto: number; readers: number; reset: string; uptimeS: number; boot: number }): void {
    this.device = { fw: f.fw, proto: f.proto, readers: f.readers, reset: f.reset, uptimeS: f.uptimeS, boot: f.boot };
    this.compatibleAgain();
    this.stopAsking();
    // Identified already: a new boot was handled with the line's sequence (the driver's `sequence`).
    if (this.identified) return;
    this.identified = true;
    this.host.log.info({ bridge: this.host.bridge, fw: f.fw, readers: f.readers, uptimeS: f.uptimeS, boot: f.boot }, 'bridge identified');
    this.host.setBridgeStatus('online', `firmware ${f.fw}, ${f.readers} readers`);
    this.sendSettings();
    this.host.stream.identified(f.boot);
  }

  private sendSettings(): void {
    if (!this.host.settings) return;
    this.host.commands.send('set', { pollMs: this.host.settings.pollMs, misses: this.host.settings.misses }).catch((e: Error) =>
      this.host.log.warn({ bridge: this.host.bridge, err: e.message }, 'set failed'),
    );
  }

  /** Sends `ident` until a valid identity comes; `firstMs`: delay of the first one. */
  identify(firstMs = 0): void {
    clearTimeout(this.identTimer);
    if (!this.host.isOpen() || this.identified) return;
    const again = () => this.identify();
    if (firstMs > 0) {
      this.identTimer = setTimeout(again, firstMs);
      return;
    }
    this.host.commands.send('ident').catch(() => undefined);
    const wait = this.incompatible ? this.host.timing.incompatibleRetryMs : this.host.timing.commandTimeoutMs * (this.host.timing.commandAttempts + 1);
    this.identTimer = setTimeout(again, wait);
  }
}
