// The players' names of a simulated session, entered as the director enters them: on the console, signed in, one
// pair at a time (POST /api/pairs/<pair>), so the names reach the assignments, the standings and the exports by the
// same path as at a club. The names are made from the plan's seed, so a session gives the same names again.
import { randomBytes } from 'node:crypto';
import type { SessionPlan } from './plan.js';
import type { PlayerName } from '../director/players.js';

const FIRST = ['Ada', 'Bernard', 'Clara', 'Dennis', 'Edith', 'Frank', 'Grace', 'Harold', 'Irene', 'Jack', 'Kathleen', 'Leonard',
  'Margaret', 'Norman', 'Olive', 'Percy', 'Queenie', 'Ronald', 'Sylvia', 'Thomas', 'Una', 'Victor', 'Winifred', 'Walter'];
const LAST = ['Ashby', 'Barker', 'Culbertson', 'Dawson', 'Ely', 'Foster', 'Goren', 'Hoyle', 'Irwin', 'Jacoby', 'Kemp', 'Lenz',
  'Mollo', 'Norris', 'Osborne', 'Pavlicek', 'Reese', 'Stayman', 'Truscott', 'Vanderbilt', 'Whitfeld', 'Yarborough'];

/** The players of each pair of the plan, with member numbers: two a pair, four a team, one an individual; from the seed. */
export function plannedNames(plan: SessionPlan): Record<string, PlayerName[]> {
  const out: Record<string, PlayerName[]> = {};
  let k = plan.seed >>> 0;
  const pick = <T>(list: readonly T[]): T => {
    // A small LCG of the seed: the names only need to be repeatable, not random.
    k = (Math.imul(k, 1664525) + 1013904223) >>> 0;
    return list[(k >>> 16) % list.length];
  };
  const size = { pairs: 2, teams: 4, individuals: 1 }[plan.schedule.kind];
  // Each player once: a name already given is drawn again (528 names, at most a few dozen players a session).
  const used = new Set<string>();
  const fresh = (): string => {
    for (;;) {
      const name = `${pick(FIRST)} ${pick(LAST)}`;
      if (!used.has(name) || used.size >= FIRST.length * LAST.length) { used.add(name); return name; }
    }
  };
  plan.schedule.participants.forEach((pair, i) => {
    out[pair] = Array.from({ length: size }, (_, j) => ({ name: fresh(), member: String(10_001 + i * size + j) }));
  });
  return out;
}

/**
 * Sign in on the director's console and give every pair its players. On a store without a password the simulator sets
 * the first one (allowed from this computer only, as for a director at first run): TENACE_DIRECTOR_PASSWORD, else a
 * made-up one, which is said when the store is kept (`kept`, the --db file) so that its director can sign in later.
 * A kept store with a password set needs it in TENACE_DIRECTOR_PASSWORD. Resolves to the sentences to tell the user:
 * that password, or why no names were entered.
 */
export async function enterNames(directorUrl: string, plan: SessionPlan, o: { kept?: string; password?: string } = {}): Promise<string[]> {
  try {
    return await signInAndName(directorUrl, plan, o.kept, o.password ?? process.env.TENACE_DIRECTOR_PASSWORD);
  } catch (e) {
    // The names are the director's to give; a console that does not answer leaves the session without them.
    return [`no names entered: the director's console did not answer (${(e as Error).message})`];
  }
}

async function signInAndName(directorUrl: string, plan: SessionPlan, kept: string | undefined, password: string | undefined): Promise<string[]> {
  const api = (path: string) => new URL(`api/${path}`, directorUrl);
  const me = await (await fetch(api('me'))).json() as { passwordSet?: boolean };
  const json = { 'content-type': 'application/json' };
  const said: string[] = [];
  let login: Response;
  if (!me.passwordSet) {
    const first = password ?? `sim-${plan.seed}-${randomBytes(6).toString('hex')}`;
    login = await fetch(api('first-password'), { method: 'POST', headers: json, body: JSON.stringify({ password: first }) });
    if (kept && !password) said.push(`the director's console password in ${kept} is now "${first}" (set by this simulation): sign in with it, or replace it with tenace director --set-password`);
  } else {
    if (!password) return ['no names entered: the console\'s password is set in this store; give it in TENACE_DIRECTOR_PASSWORD'];
    login = await fetch(api('login'), { method: 'POST', headers: json, body: JSON.stringify({ password }) });
  }
  const signed = await login.json() as { ok?: boolean; csrf?: string; error?: string };
  if (!signed.ok || !signed.csrf) return [`no names entered: the console refused the sign-in (${signed.error ?? login.status})`];
  const headers = { ...json, cookie: (login.headers.get('set-cookie') ?? '').split(';')[0], 'x-tenace-csrf': signed.csrf };
  for (const [pair, players] of Object.entries(plannedNames(plan))) {
    const res = await fetch(api(`pairs/${encodeURIComponent(pair)}`), { method: 'POST', headers, body: JSON.stringify({ players }) });
    const j = await res.json() as { ok?: boolean; error?: string };
    if (!j.ok) return [...said, `no names entered for ${pair}: ${j.error ?? res.status}`];
  }
  return said;
}
