// Reading a whole standard input for the commands that take `-` as their file (replay, score).
import { readFileSync } from 'node:fs';

/** Standard input, whole. A non-blocking stdin (inherited from some parents) is read again through /dev/stdin. */
export function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
    return readFileSync('/dev/stdin', 'utf8');
  }
}
