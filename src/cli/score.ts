// `tenace score`: placeholder until issue 7 writes it.

/** Run `tenace score`; resolves to the exit code. */
export async function scoreCommand(_argv: string[]): Promise<number> {
  process.stderr.write('tenace score: not written yet\n');
  return 70;
}
