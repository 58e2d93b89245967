// The SQLite store's commits made durable off the event loop (issue 18). better-sqlite3 is synchronous: with
// synchronous=FULL every COMMIT blocked the director's event loop for the WAL's fsync (1-3 ms here, a group commit
// every few ms at a round's end), and no message was read, folded or scored meanwhile. With synchronous=NORMAL a
// COMMIT writes the WAL's frames and returns; this fdatasyncs the WAL file on libuv's thread pool, and nothing a
// commit holds is acknowledged or published before that has returned. SQLite itself syncs the WAL before each
// checkpoint and the database after it, so what is checkpointed is on disk as before.
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Flushes a WAL-mode SQLite database's `-wal` file to disk, asynchronously. */
export class WalSync {
  private handle: Promise<FileHandle> | null = null;
  private closed = false;

  constructor(private readonly dbPath: string) {}

  /** Every commit that returned before this call is on disk once the promise resolves; rejects on an I/O error. */
  async sync(): Promise<void> {
    if (this.closed) throw new Error(`store: ${this.dbPath} is closed`);
    // A failed open is tried again at the next sync, not remembered.
    const h = await (this.handle ??= this.openWal().catch((err: unknown) => { this.handle = null; throw err; }));
    await h.datasync();
  }

  /** Close the WAL's handle (after the database). */
  async close(): Promise<void> {
    this.closed = true;
    const h = await this.handle?.catch(() => null);
    await h?.close();
  }

  // The WAL exists from the first commit until the last connection closes. Its directory entry is synced once, as
  // SQLite does for a file it creates, so that the file itself survives a power cut.
  private async openWal(): Promise<FileHandle> {
    const h = await open(`${this.dbPath}-wal`, 'r');
    const dir = await open(dirname(this.dbPath), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
    return h;
  }
}
