// `tenace session`: placeholder until issue 7 writes it.

/** Run `tenace session`; resolves to the exit code. */
export async function sessionCommand(_argv: string[]): Promise<number> {
  process.stderr.write('tenace session: not written yet\n');
  return 70;
}
