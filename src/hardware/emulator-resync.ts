// What the emulator knows of a host's resynchronisation (PROTOCOL.md §11): whether a host has taken a
// snapshot or replay since the last reset, and whether a lost or corrupted line still awaits one.
//
// Apart from the device class because it is bookkeeping about the host, not device behaviour: the
// device never acts on it; only callers waiting (a play, tests) do.

/** Callers waiting for a state, each resolved once: true when it is reached, false on timeout. */
export class Waiters {
  private list: ((ok: boolean) => void)[] = [];

  /** A promise for the next settle(), or false after `timeoutMs`. */
  wait(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.list = this.list.filter((w) => w !== done);
        resolve(false);
      }, timeoutMs);
      const done = (ok: boolean) => {
        clearTimeout(t);
        resolve(ok);
      };
      this.list.push(done);
    });
  }

  /** Resolve every pending wait with `ok`. */
  settle(ok: boolean): void {
    for (const w of this.list.splice(0)) w(ok);
  }
}

/** The host's resynchronisation as the device's lines allow it to know it. */
export class ResyncState {
  /** Snapshots and replays sent since the last reset: a host has resynchronised. */
  sinceBoot = 0;
  /** A line was lost or corrupted and no clean snapshot has been sent since: the host has not yet
   * resynchronised. It can know of the fault once `faultLine` lines have been written. */
  dirty = false;
  faultLine = 0;
  /** abs of the first line lost or corrupted while dirty: a replay resynchronises only if it
   * starts before it. */
  faultAbs = 0;
  /** Waiting for any snapshot or replay of this boot. */
  readonly synced = new Waiters();
  /** Waiting for the pending faults to be resolved. */
  readonly clean = new Waiters();

  /** A line was lost (`written` false) or corrupted at `abs`, `linesSent` lines having been written:
   * the host learns of it from the next line (or, for a written line the host must act on, at once). */
  markDirty(linesSent: number, written: boolean, abs: number): void {
    if (!this.dirty) this.faultAbs = abs;
    this.dirty = true;
    this.faultLine = linesSent + (written ? 2 : 1);
  }

  /** True when a fault awaits resynchronisation and a later line has shown the host the gap. */
  shown(linesSent: number): boolean {
    return this.dirty && linesSent >= this.faultLine;
  }

  /** A snapshot or replay went out; `clean`: it also resolves the pending faults. */
  resynced(clean: boolean): void {
    this.sinceBoot++;
    this.synced.settle(true);
    if (clean) {
      this.dirty = false;
      this.clean.settle(true);
    }
  }

  /** The device went down: the faults of the old boot no longer await anything. */
  powerOff(): void {
    this.dirty = false;
    this.clean.settle(true);
  }

  /** Resolves true once no lost or corrupted line awaits resynchronisation; false on timeout. */
  whenClean(timeoutMs: number): Promise<boolean> {
    if (!this.dirty) return Promise.resolve(true);
    return this.clean.wait(timeoutMs);
  }
}
