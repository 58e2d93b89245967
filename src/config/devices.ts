// Serial devices named in the config or on the command line: is the path there, and may this user open it? A
// sentence for each problem names the udev link that hardware/99-tenace.rules makes, which is what to look for.
import { accessSync, constants, statSync } from 'node:fs';

/** What is on the other end of the port: it decides the udev link to expect. */
export type DeviceKind = 'bridge' | 'scanner';

const UDEV_LINK: Record<DeviceKind, string> = {
  bridge: '/dev/tenace-bridge-<serial>',
  scanner: '/dev/tenace-scanner',
};

/** Why the serial device at `path` cannot be opened now, or undefined when it exists and is readable and writable. */
export function deviceProblem(path: string, kind: DeviceKind): string | undefined {
  try {
    statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return `${path} cannot be checked (${code})`;
    const look = kind === 'bridge' ? 'ls -l /dev/tenace-bridge-* /dev/serial/by-id/' : 'ls -l /dev/tenace-scanner /dev/serial/by-id/';
    return `${path} does not exist: plug the ${kind} in and check the path; with hardware/99-tenace.rules installed it appears as ${UDEV_LINK[kind]} (${look})`;
  }
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
  } catch {
    return `${path} exists but this user may not open it: add the user to the dialout group (sudo usermod -aG dialout $USER, then log in again), or install hardware/99-tenace.rules`;
  }
  return undefined;
}
