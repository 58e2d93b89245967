// A group commit's queries (commit.ts): what a group's deals write, gathered into one statement per kind, or on
// PostgreSQL into one statement with its NOTIFY.
import { type Kysely, type Transaction, sql } from 'kysely';
import { CHANGE_CHANNEL, type ChangeNote, type DirectorDb, EVENTS_PER_STATEMENT, type StoredDecision, type StoredEvent, type StoredResult, StoreOps, changePayload, chunks, num } from './store-ops.js';
import type { ClubAlert, RoundAssignment, TrayRecord } from '../types.js';

/**
 * The results, assignments or first tray records one statement of a group writes. oneStatement() and flush() read the
 * same bound: a group that flush() would write in two statements must not be taken for one (it would not be atomic).
 */
const ROWS_PER_STATEMENT = 200;

/** GroupOps' writes that only gather, for a statement written at flush. */
const GATHERED = new Set<string | symbol>(['insertEvents', 'notifyChange', 'putResult', 'putAssignment']);

/** A group's write that GroupOps.gatherOnly() does not gather: the group goes in a transaction. */
export class NotGathered extends Error {
  constructor(what: string) {
    super(`store: ${what} is not gathered into a group's one statement`);
  }
}

/**
 * A group commit's queries (commit.ts): the events, results and round assignments its deals make are gathered and
 * written one statement each once the group's writes are done (flush), not one round trip each; the last write of a
 * key wins, as it would have one statement at a time. Nothing in a group reads them back before its commit. On
 * PostgreSQL the events, results, assignments and the NOTIFY go in one statement (data-modifying WITH): a round trip
 * under load took 5-100 ms in the championship, and a result's group made seven.
 */
export class GroupOps extends StoreOps {
  private readonly pendingEvents: StoredEvent[] = [];
  private received = '';
  private notice: string | null = null;
  private readonly pendingResults = new Map<string, StoredResult>();
  private readonly pendingAssignments = new Map<string, RoundAssignment>();
  private readonly pendingTrays: { rec: TrayRecord; taken: (tx: StoreOps) => Promise<void> }[] = [];
  private session: string | null = null;
  /** What this group stored that the other instances read back: said in its NOTIFY, so they read back only that. */
  readonly note: ChangeNote = { results: new Set(), trays: false, assignments: false, alerts: false, decisions: false };

  constructor(q: Kysely<DirectorDb> | Transaction<DirectorDb>, postgres: boolean) {
    super(q, postgres);
  }

  /** Gathered, and written with the rest at flush. */
  override async insertEvents(session: string, rows: readonly StoredEvent[], received: string): Promise<void> {
    this.own(session);
    this.received = received;
    for (const r of rows) this.pendingEvents.push(r);
  }

  /** Said at flush, with the last of its writes: what was gathered is known only then. */
  override async notifyChange(session: string, instance: string): Promise<void> {
    this.own(session);
    this.notice = instance;
  }

  override async putTray(session: string, rec: TrayRecord): Promise<boolean> {
    this.note.trays = true;
    return super.putTray(session, rec);
  }

  override async putAlert(session: string, id: string, alert: ClubAlert): Promise<boolean> {
    this.note.alerts = true;
    return super.putAlert(session, id, alert);
  }

  override async putDecision(session: string, d: StoredDecision): Promise<boolean> {
    this.note.decisions = true;
    return super.putDecision(session, d);
  }

  override async putResult(session: string, r: StoredResult): Promise<void> {
    this.own(session);
    this.note.results.add(r.table);
    this.pendingResults.set(`${r.traveller.board}\t${r.table}\t${r.traveller.round ?? 0}`, r);
  }

  override async putAssignment(session: string, a: RoundAssignment): Promise<void> {
    this.own(session);
    this.note.assignments = true;
    this.pendingAssignments.set(`${a.table}\t${a.round}`, a);
  }

  override async putFirstTray(session: string, rec: TrayRecord, taken: (tx: StoreOps) => Promise<void>): Promise<void> {
    this.own(session);
    this.note.trays = true;
    this.pendingTrays.push({ rec, taken });
  }

  /**
   * Whether what was gathered makes one statement on PostgreSQL (flush): no first tray records (a statement of their
   * own), and each kind within one statement's rows. That statement is then atomic without BEGIN and COMMIT.
   */
  oneStatement(): boolean {
    return this.postgres && this.pendingTrays.length === 0 && this.pendingEvents.length <= EVENTS_PER_STATEMENT
      && this.pendingResults.size <= ROWS_PER_STATEMENT && this.pendingAssignments.size <= ROWS_PER_STATEMENT;
  }

  /**
   * This object as a group's writes may use it to gather only: the gathered writes (events, results, assignments,
   * the NOTIFY) pass; any other write throws NotGathered before it reaches the store, and the group is written in a
   * transaction instead.
   */
  gatherOnly(): StoreOps {
    return new Proxy(this, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (typeof v !== 'function' || GATHERED.has(prop)) return typeof v === 'function' ? v.bind(target) : v;
        return () => { throw new NotGathered(String(prop)); };
      },
    });
  }

  /** Write what was gathered; then, for each first record another got in before, its `taken`. */
  async flush(): Promise<void> {
    const session = this.session;
    if (session === null) return;
    const trays = this.pendingTrays.splice(0);
    const stored = new Set<string>();
    for (const part of chunks(trays, ROWS_PER_STATEMENT)) {
      const rows = await this.q.insertInto('trays').values(part.map(({ rec }) => ({ session, board: rec.board, rev: rec.rev, json: JSON.stringify(rec), source: rec.source.kind, at: rec.source.at })))
        .onConflict((oc) => oc.columns(['session', 'board', 'rev']).doNothing()).returning(['board', 'rev']).execute();
      for (const r of rows) stored.add(`${num(r.board)}:${num(r.rev)}`);
    }
    // One group may hold two first records of a tray (two tables finished it together): the first stands.
    const seen = new Set<string>();
    for (const { rec, taken } of trays) {
      const k = `${rec.board}:${rec.rev}`;
      if (!stored.has(k) || seen.has(k)) await taken(this);
      seen.add(k);
    }
    const events = chunks(this.pendingEvents.splice(0), EVENTS_PER_STATEMENT);
    const results = chunks([...this.pendingResults.values()], ROWS_PER_STATEMENT);
    const assignments = chunks([...this.pendingAssignments.values()], ROWS_PER_STATEMENT);
    // The results go with the note, so that the others need not read them back (changePayload drops them if too long).
    const notice = this.notice === null ? null : changePayload(session, this.notice, { ...this.note, carried: results.flat() });
    this.pendingResults.clear();
    this.pendingAssignments.clear();
    this.notice = null;
    const kinds: { execute(): Promise<unknown> }[][] = [
      events.map((part) => this.eventsInsert(session, part, this.received)),
      results.map((part) => this.resultsInsert(session, part)),
      assignments.map((part) => this.assignmentsInsert(session, part)),
    ];
    // On PostgreSQL the first statement of each kind goes with the NOTIFY into one; a group larger than a statement's
    // rows writes the rest first. SQLite has no data-modifying WITH, and its statements cost no round trip.
    const together = this.postgres ? kinds.flatMap((parts) => parts.slice(0, 1)) : [];
    for (const parts of kinds) for (const q of this.postgres ? parts.slice(1) : parts) await q.execute();
    const ctes = sql.join(together.map((q, i) => sql`${sql.ref(`w${i}`)} as (${q})`));
    if (notice !== null) await (together.length ? sql`with ${ctes} select pg_notify(${CHANGE_CHANNEL}, ${notice})` : sql`select pg_notify(${CHANGE_CHANNEL}, ${notice})`).execute(this.q);
    else if (together.length) await sql`with ${ctes} select 1`.execute(this.q);
  }

  /** The upsert of some results, not yet run. */
  private resultsInsert(session: string, part: readonly StoredResult[]) {
    return this.q.insertInto('results').values(part.map((r) => ({
      session, board: r.traveller.board, table_id: r.table, round: r.traveller.round ?? 0, ns: r.traveller.ns, ew: r.traveller.ew,
      json: JSON.stringify(r.traveller), from_seq: r.fromSeq, to_seq: r.toSeq,
    }))).onConflict((oc) => oc.columns(['session', 'board', 'table_id', 'round']).doUpdateSet((eb) => ({
      ns: eb.ref('excluded.ns'), ew: eb.ref('excluded.ew'), json: eb.ref('excluded.json'), from_seq: eb.ref('excluded.from_seq'), to_seq: eb.ref('excluded.to_seq'),
    })));
  }

  /** The upsert of some round assignments, not yet run. */
  private assignmentsInsert(session: string, part: readonly RoundAssignment[]) {
    return this.q.insertInto('assignments').values(part.map((a) => ({ session, table_id: a.table, round: a.round, json: JSON.stringify(a), at: a.at })))
      .onConflict((oc) => oc.columns(['session', 'table_id', 'round']).doUpdateSet((eb) => ({ json: eb.ref('excluded.json'), at: eb.ref('excluded.at') })));
  }

  /** A director writes one session; gathering two in one statement would need a session per row. */
  private own(session: string): void {
    if (this.session !== null && this.session !== session) throw new Error(`store: one group commit wrote sessions ${this.session} and ${session}`);
    this.session = session;
  }
}
