// Durable-file helpers, the one place that replaces a file atomically (journals, delivery marks, deck files): a
// file is replaced whole or not at all, and its directory entry survives power loss. The async form keeps the
// daemon's event loop free; the sync form serves the deck commands, which have nothing else to do meanwhile.
import { closeSync, fdatasyncSync, fsyncSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** fsync a directory, so that a file created, renamed or removed in it stays so after a power cut. */
export async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Replace `path` atomically: write a temporary file, flush it, rename it over `path`, flush the directory. */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = tempPathFor(path);
  const fh = await open(tmp, 'wx', 0o644);
  try {
    try {
      await fh.writeFile(data);
      await fh.datasync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw e;
  }
  await fsyncDir(dirname(path)).catch(ignoreUnsupportedDirSync);
}

/** writeFileAtomic for synchronous callers: the same steps, blocking. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  const tmp = tempPathFor(path);
  const fd = openSync(tmp, 'wx', 0o644);
  try {
    try {
      writeFileSync(fd, data);
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* never created, or already renamed */
    }
    throw e;
  }
  try {
    const dfd = openSync(dirname(path), 'r');
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch (e) {
    ignoreUnsupportedDirSync(e);
  }
}

// The pid keeps two processes (a daemon and a CLI) apart, the random part two writes in one process; 'wx' makes a
// collision an error rather than a shared temporary file.
function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
}

// Some filesystems refuse fsync on a directory; the rename is still atomic there, only its durability is theirs.
function ignoreUnsupportedDirSync(e: unknown): void {
  const code = (e as NodeJS.ErrnoException).code;
  if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EPERM' && code !== 'EACCES') throw e;
}
