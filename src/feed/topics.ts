// MQTT topic names of the feed (DESIGN §6): everything about one table lives under `<base>/<club>/<table>/`.
// Kept free of Node APIs so that the browser view can import it.

/** The default topic base. */
export const DEFAULT_BASE = 'tenace';

/** Commands a table accepts on `request/<cmd>`; the response comes back on `response/<cmd>`. */
export const COMMANDS = ['start-deal', 'abandon-deal', 'set-contract', 'remedy', 'claim', 'undo-misread', 'honours', 'answer-claim', 'accept-result', 'call-director', 'set-players'] as const;
export type CommandName = (typeof COMMANDS)[number];

/**
 * Queries a table answers on `request/<q>` → `response/<q>` (club, docs/club.md): reads of the journal, never
 * journaled themselves. `events`: the journal events after a seq (the director's gap fill).
 */
export const QUERIES = ['events'] as const;
export type QueryName = (typeof QUERIES)[number];

/** True when the string names a query the feed answers. */
export function isQueryName(s: string): s is QueryName {
  return (QUERIES as readonly string[]).includes(s);
}

/** True when the string names a command the feed accepts. */
export function isCommandName(s: string): s is CommandName {
  return (COMMANDS as readonly string[]).includes(s);
}

/** The topics of one table. */
export interface TableTopics {
  /** `<base>/<club>/<table>`, without a trailing slash. */
  root: string;
  /** Retained `online` / `offline`; the last will. */
  status: string;
  /** Retained public snapshot. */
  state: string;
  /** Each TableEvent (redacted to what is public) with `seq`, QoS 1, not retained. */
  event: string;
  /** Every finding, including live renounce alerts: the director only (ACL). */
  director: string;
  /** Extension: retained full snapshot for the director (remaining hands, all findings). */
  directorState: string;
  /** Extension (club): every journal event in full, with its seq, QoS 1, not retained: the director only (ACL). */
  directorEvent: string;
  /**
   * Extension (issue 21): retained double-dummy analysis of the deal (`SpectatorAnalysis`), spectator-only (ACL role
   * `vugraph`): it names unplayed cards, so no player account may read it, and it is published only once released.
   */
  analysis: string;
  /** Extension (club): retained `RoundAssignment` written by the director: this table's pairs and trays this round. */
  assignment: string;
  /** Subscription filter for all commands. */
  requestFilter: string;
  /** `request/<cmd>`. */
  request(cmd: string): string;
  /** `response/<cmd>`. */
  response(cmd: string): string;
  /** The command name of a `request/<cmd>` topic of this table, or null when the topic is not one. */
  commandOf(topic: string): string | null;
}

/**
 * Check one topic level chosen by a user (club, table, session): MQTT forbids wildcards in published topic names,
 * and a `/` would silently move the table to another place in the tree, past the ACL.
 */
export function checkTopicLevel(what: string, value: string): void {
  if (typeof value !== 'string' || value.length === 0) throw new Error(`${what}: must be a non-empty string`);
  if (/[/+#\u0000]/.test(value)) throw new Error(`${what}: "${value}" must not contain "/", "+", "#" or NUL`);
  if (value.startsWith('$')) throw new Error(`${what}: "${value}" must not start with "$" (reserved by MQTT brokers)`);
  // MQTT limits a whole topic to 65535 bytes; a level of 64 characters is plenty for a club or table name.
  if (value.length > 64) throw new Error(`${what}: "${value.slice(0, 20)}..." is longer than 64 characters`);
}

/** Table names that would collide with the club-level topics (`<base>/<club>/trays/...`, `<base>/<club>/club/...`). */
export const RESERVED_TABLE_NAMES: ReadonlySet<string> = new Set(['trays', 'club']);

/** Build the topics of a table; throws when club or table cannot be a topic level. */
export function tableTopics(club: string, table: string, base = DEFAULT_BASE): TableTopics {
  checkBase(base);
  checkTopicLevel('club', club);
  checkTopicLevel('table', table);
  // `<base>/<club>/trays/...` carries the tray records; a table of that name would write into them.
  if (RESERVED_TABLE_NAMES.has(table)) throw new Error(`table: "${table}" is reserved for the ${table === 'trays' ? 'tray records' : 'club\'s session topics'}; choose another table name`);
  const root = `${base}/${club}/${table}`;
  const reqPrefix = `${root}/request/`;
  return {
    root,
    status: `${root}/status`,
    state: `${root}/state`,
    event: `${root}/event`,
    director: `${root}/director`,
    directorState: `${root}/director/state`,
    directorEvent: `${root}/director/event`,
    analysis: `${root}/analysis`,
    assignment: `${root}/assignment`,
    requestFilter: `${root}/request/+`,
    request: (cmd) => `${reqPrefix}${cmd}`,
    response: (cmd) => `${root}/response/${cmd}`,
    commandOf: (topic) => {
      if (!topic.startsWith(reqPrefix)) return null;
      const cmd = topic.slice(reqPrefix.length);
      return cmd.length > 0 && !cmd.includes('/') ? cmd : null;
    },
  };
}

/** The topic of a tray record: `<base>/<club>/trays/<session>/<board>` (restricted by the ACL). */
export function trayTopic(club: string, session: string, board: number, base = DEFAULT_BASE): string {
  checkBase(base);
  checkTopicLevel('club', club);
  checkTopicLevel('session', session);
  if (!Number.isInteger(board) || board < 0) throw new Error(`board: must be a non-negative integer (got ${board})`);
  return `${base}/${club}/trays/${session}/${board}`;
}

function checkBase(base: string): void {
  // The base may have several levels ("clubs/tenace"), but no empty level and no wildcard.
  if (typeof base !== 'string' || base.length === 0 || base.split('/').some((l) => l.length === 0 || /[+#\u0000]/.test(l))) {
    throw new Error(`base: "${base}" must be one or more non-empty topic levels without wildcards, e.g. "tenace"`);
  }
}

/** The club-level topics of one session, under `<base>/<club>/club/<session>/` (docs/club.md). */
export interface SessionTopics {
  /** `<base>/<club>/trays/<session>/+`: every tray record of the session (tables and director only, ACL). */
  traysFilter: string;
  /** The tray record of one board. */
  tray(board: number): string;
  /** Retained public standings (`ScoreReport`). */
  standings: string;
  /** Retained public list of boards whose embargo is released: `{schema, type:'tenace.released', session, boards}`. */
  released: string;
  /** Director-only alerts of the whole session (wrong-tray, fouled-tray, ...), QoS 1, not retained. */
  alerts: string;
  /** Retained director-only session snapshot (grid, alerts, progress) for the director page. */
  director: string;
  /** Retained schedule of the session (`Schedule` JSON), public: which pairs sit where; no cards. */
  schedule: string;
}

/** Build the club-level topics of a session; throws when club or session cannot be a topic level. */
export function sessionTopics(club: string, session: string, base = DEFAULT_BASE): SessionTopics {
  checkBase(base);
  checkTopicLevel('club', club);
  checkTopicLevel('session', session);
  const root = `${base}/${club}/club/${session}`;
  return {
    traysFilter: `${base}/${club}/trays/${session}/+`,
    tray: (board) => trayTopic(club, session, board, base),
    standings: `${root}/standings`,
    released: `${root}/released`,
    alerts: `${root}/alerts`,
    director: `${root}/director`,
    schedule: `${root}/schedule`,
  };
}
