// Reading a command's input file whole, or standard input for `-` (replay, score, analyse).
import { readFileSync } from 'node:fs';
import { printable } from '../formats/quote.js';
import type { CliIo } from './args.js';

/** Standard input, whole. A non-blocking stdin (inherited from some parents) is read again through /dev/stdin. */
export function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
    return readFileSync('/dev/stdin', 'utf8');
  }
}

/** FILE's text (`-` is standard input) with the name to quote, or exit code 66 after one line naming the file. */
export function readInput(command: string, file: string, io: CliIo): { text: string; name: string } | number {
  const name = file === '-' ? 'stdin' : file;
  try {
    return { text: file === '-' ? readStdin() : readFileSync(file, 'utf8'), name };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    io.err(`tenace ${command}: cannot read ${printable(name)}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}\n`);
    return 66;
  }
}
