// Whether double-dummy analysis is on, asked synchronously (check-config): a short-lived node opens libdds through
// koffi, says what it found and kills itself, so neither this process nor DDS's segfault at exit is involved.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { DDS_SONAME, DD_OFF, type DdStatus } from './types.js';

/** Probe libdds in a throwaway process; the library named by LIBDDS_PATH in `env` when set. */
export function probeDds(env: NodeJS.ProcessEnv = process.env): DdStatus {
  let koffiPath: string;
  try {
    koffiPath = createRequire(import.meta.url).resolve('koffi');
  } catch {
    return { on: false, reason: `${DD_OFF} (the koffi package is missing: run npm install)` };
  }
  const lib = env.LIBDDS_PATH || DDS_SONAME;
  const script = `
    let msg;
    try {
      const k = require(${JSON.stringify(koffiPath)});
      const l = k.load(${JSON.stringify(lib)});
      const info = k.struct({ major: 'int', minor: 'int', patch: 'int', v: k.array('char', 10), rest: k.array('char', 1300) });
      const out = {};
      l.func('GetDDSInfo', 'void', [k.out(k.pointer(info))])(out);
      msg = { on: true, version: out.major + '.' + out.minor + '.' + out.patch };
    } catch (e) { msg = { on: false, reason: String(e.message).split('\\n')[0] }; }
    process.stdout.write(JSON.stringify(msg), () => process.kill(process.pid, 'SIGKILL'));`;
  const r = spawnSync(process.execPath, ['-e', script], { env, encoding: 'utf8', timeout: 10_000 });
  try {
    const msg = JSON.parse(r.stdout) as DdStatus;
    return msg.on ? msg : { on: false, reason: `${DD_OFF} (${lib}: ${msg.reason})` };
  } catch {
    return { on: false, reason: `${DD_OFF} (the probe ended with ${r.signal ?? `exit code ${r.status}`})` };
  }
}
