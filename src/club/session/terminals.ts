// The HTTP clients of the terminals the simulated players use, as their pages do: the table terminal (contract,
// claims, accepting the result) and the hand-scoring terminal, with the hand-scored tables' PINs. Apart because they
// are plain HTTP clients of the daemon's and the director's APIs.
import type { SessionPlan } from './plan.js';

/** A table terminal's HTTP interface: the PIN opens it, then each action is a command with its own transaction id. */
export class TableTerminal {
  private n = 0;
  private constructor(private readonly url: string, private readonly cookie: string) {}

  /** Signs in with the table's PIN: the session cookie it sets carries every command after. */
  static async open(url: string, pin: string): Promise<TableTerminal> {
    const res = await fetch(new URL('terminal/api/pin', url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pin }) });
    if (!res.ok) throw new Error(`the table terminal refused its PIN: ${res.status}`);
    return new TableTerminal(url, (res.headers.get('set-cookie') ?? '').split(';')[0]);
  }

  /** One terminal command; a refusal throws, as the page would show it. */
  async send(cmd: string, body: Record<string, unknown>): Promise<void> {
    const res = await fetch(new URL(`terminal/api/command/${cmd}`, this.url), {
      method: 'POST', headers: { 'content-type': 'application/json', cookie: this.cookie },
      body: JSON.stringify({ transaction: `sim-${process.pid}-${Date.now()}-${++this.n}`, ...body }),
    });
    const j = await res.json() as { ok?: boolean; error?: string };
    if (!j.ok) throw new Error(`the table terminal refused ${cmd}: ${j.error ?? res.status}`);
  }
}

/** The hand-scoring terminal's HTTP interface, as its page uses it. */
export class HandTerminal {
  private token = '';
  private n = 0;
  constructor(private readonly url: string, private readonly table: string, private readonly pin: string) {}

  /** Signs in with the table and its PIN: the bearer token it returns carries the results after. */
  async login(): Promise<void> {
    const r = await this.post('login', { table: this.table, pin: this.pin });
    this.token = (r as { token: string }).token;
  }

  /** One result, as the players enter it, under its own transaction id. */
  async enter(result: Record<string, unknown>): Promise<void> {
    await this.post('result', { transaction: `sim-${this.table}-${++this.n}`, ...result });
  }

  private async post(what: string, body: unknown): Promise<unknown> {
    const res = await fetch(new URL(`api/hand/${what}`, this.url), {
      method: 'POST', body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) },
    });
    const j = await res.json() as { error?: string };
    if (!res.ok) throw new Error(`table ${this.table}'s terminal: ${what}: ${j.error ?? res.status}`);
    return j;
  }
}

/** The hand-scored tables' PINs, as the director's console shows them: made from the secret in its store. */
export async function tablePins(db: string, plan: SessionPlan): Promise<Map<number, string>> {
  const { DirectorStore } = await import('../director/store.js');
  const { newPinSecret, tablePin } = await import('../director/hand-scored.js');
  const store = await DirectorStore.open(`sqlite:${db}`);
  try {
    const secret = await store.metaValue('table-pin-secret', newPinSecret);
    return new Map(plan.handScored.map((t) => [t, tablePin(secret, plan.session, String(t))]));
  } finally {
    await store.close();
  }
}
