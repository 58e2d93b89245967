// `tenace movement`: placeholder until issue 7 writes it.

/** Run `tenace movement`; resolves to the exit code. */
export async function movementCommand(_argv: string[]): Promise<number> {
  process.stderr.write('tenace movement: not written yet\n');
  return 70;
}
