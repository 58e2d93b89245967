// One writer per journal folder. Two daemons appending to the same session (the service, plus a `tenace run`
// started by hand) would interleave sequence numbers. Node has no flock without a native module, so the lock is a
// file naming its owner, and a lock whose owner is gone is taken over: after a power cut or SIGKILL nobody removes
// it, and the daemon must still start. An owner is identified by boot id, pid and process start time, so a pid
// reused after a reboot is not mistaken for the old owner.
import { readFileSync } from 'node:fs';
import { open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export const LOCK_FILE = 'LOCK';

interface Owner {
  pid: number;
  boot?: string;
  start?: string;
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime) counts from after the command name, which is in parentheses and may contain spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function me(): Owner {
  return { pid: process.pid, boot: bootId(), start: startTime(process.pid) };
}

function alive(o: Owner): boolean {
  const boot = bootId();
  if (o.boot && boot && o.boot !== boot) return false;
  try {
    process.kill(o.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const start = startTime(o.pid);
  return !(o.start && start && o.start !== start);
}

/** The journal folder is locked by a live process: a second daemon (or simulate) on the same journal. */
export class JournalLockedError extends Error {
  constructor(readonly dir: string, readonly holder: number, readonly lockFile: string) {
    super(`journal folder ${dir} is in use by process ${holder}${holder === process.pid ? ' (this one: close the other Journal first)' : ''}: `
      + `stop it first (is the tenace service running? systemctl status tenace), or remove ${lockFile} if that process is not a tenace daemon`);
    this.name = 'JournalLockedError';
  }
}

/** A held lock on a journal folder. */
export interface JournalLock {
  release(): Promise<void>;
}

/** Take the folder's lock, taking over a stale one; throws when a live process holds it. */
export async function lockJournalDir(dir: string): Promise<JournalLock> {
  const path = join(dir, LOCK_FILE);
  const owner = me();
  const text = JSON.stringify(owner) + '\n';
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fh = await open(path, 'wx', 0o644);
      try {
        await fh.writeFile(text);
      } finally {
        await fh.close();
      }
      return {
        async release() {
          // Remove it only if it is still ours (never someone else's lock after a takeover).
          const cur = await readFile(path, 'utf8').catch(() => '');
          if (cur === text) await unlink(path).catch(() => {});
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let held: Owner | undefined;
    try {
      held = JSON.parse(await readFile(path, 'utf8')) as Owner;
    } catch {
      // Unreadable or half-written (a crash while taking it): nobody can be relying on it.
      held = undefined;
    }
    if (held && Number.isInteger(held.pid) && alive(held)) {
      throw new JournalLockedError(dir, held.pid, path);
    }
    await unlink(path).catch(() => {});
  }
  throw new Error(`journal folder ${dir}: could not take the lock ${path}; another process keeps taking it`);
}
