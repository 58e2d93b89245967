// `tenace trays`: placeholder until issue 7 writes it.

/** Run `tenace trays`; resolves to the exit code. */
export async function traysCommand(_argv: string[]): Promise<number> {
  process.stderr.write('tenace trays: not written yet\n');
  return 70;
}
