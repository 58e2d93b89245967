// `tenace director --config FILE --set-password`: set (or replace) the password of the director's console in the
// director's store, as a scrypt hash. On a terminal it asks twice without echo; otherwise it reads the first line of
// standard input (`printf '%s\n' "$PW" | tenace director --config club.yaml --set-password`).
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { passwordProblem, setPassword } from '../club/director/auth.js';
import { DirectorStore } from '../club/director/store.js';
import { EX_USAGE } from './args.js';

/** Ask for a line on the terminal without echoing it. */
function askHidden(question: string): Promise<string> {
  let muted = false;
  const out = new Writable({ write(chunk, _enc, cb) { if (!muted) process.stdout.write(chunk); cb(); } });
  const rl = createInterface({ input: process.stdin, output: out, terminal: true });
  return new Promise((resolve) => {
    rl.question(question, (answer) => { rl.close(); process.stdout.write('\n'); resolve(answer); });
    muted = true;
  });
}

/** The first line of standard input. */
async function firstLine(): Promise<string> {
  let text = '';
  for await (const c of process.stdin) {
    text += String(c);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0];
}

/** Set the console's password in the store at `storeUrl`; resolves to the exit code. */
export async function setPasswordCommand(storeUrl: string): Promise<number> {
  let password: string;
  if (process.stdin.isTTY) {
    password = await askHidden('The director\'s new password (at least 10 characters): ');
    if (await askHidden('The same again: ') !== password) {
      process.stderr.write('tenace director: --set-password: the two passwords differ; run it again and type the same password twice\n');
      return EX_USAGE;
    }
  } else {
    password = await firstLine();
  }
  const problem = passwordProblem(password);
  if (problem) {
    process.stderr.write(`tenace director: --set-password: ${problem}\n`);
    return EX_USAGE;
  }
  const store = await DirectorStore.open(storeUrl);
  try {
    await setPassword(store.db, password);
  } finally {
    await store.close();
  }
  process.stdout.write(`ok: the director's password is set in ${storeUrl.replace(/\/\/[^@/]*@/, '//')}; sign in on the director page\n`);
  return 0;
}
