// A MockBinding port whose device side is scripted by the test: it sees every line the host writes and answers
// through the open port (deck-enrol, driver-listen and fuzz-driver tests).
import { createRequire } from 'node:module';
import type * as BindingMock from '@serialport/binding-mock' with { 'resolution-mode': 'require' };

export const { MockBinding } = createRequire(import.meta.url)('@serialport/binding-mock') as typeof BindingMock;
export type MockPortBinding = BindingMock.MockPortBinding;

/**
 * Create a mock port at `path`; the binding returned hands each host write, once recorded, to `onWrite` with the
 * open port. `port()` is the port the host has open (undefined before it opens it).
 */
export function scriptedPort(
  path: string,
  onWrite: (buf: Buffer, port: MockPortBinding) => void,
  opts: { maxReadSize?: number } = {},
): { binding: typeof MockBinding; port: () => MockPortBinding | undefined } {
  MockBinding.createPort(path, { echo: false, record: false, ...opts });
  let port: MockPortBinding | undefined;
  const binding = {
    ...MockBinding,
    open: async (o: Parameters<typeof MockBinding.open>[0]) => {
      const b = await MockBinding.open(o);
      port = b;
      const write = b.write.bind(b);
      b.write = async (buf: Buffer) => {
        await write(buf);
        onWrite(buf, b);
      };
      return b;
    },
  } as typeof MockBinding;
  return { binding, port: () => port };
}
