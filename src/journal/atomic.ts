// Small durable-file helpers: a file is replaced whole or not at all, and its directory entry survives power loss.
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
  // The pid keeps two processes (a daemon and a CLI) from writing the same temporary file.
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const fh = await open(tmp, 'w', 0o644);
  try {
    await fh.writeFile(data);
    await fh.datasync();
  } catch (e) {
    await fh.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw e;
  }
  await fh.close();
  await rename(tmp, path);
  await fsyncDir(dirname(path));
}
