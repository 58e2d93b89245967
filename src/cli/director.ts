// `tenace director`: placeholder until issue 7 writes it.

/** Run `tenace director`; resolves to the exit code. */
export async function directorCommand(_argv: string[]): Promise<number> {
  process.stderr.write('tenace director: not written yet\n');
  return 70;
}
