// The director's YAML config (config/club.example.yaml): one JSON schema (defaults, validation, the published
// config/club.schema.json) and the checks a schema cannot express (the movement exists and fits the tables, table ids
// are distinct topic levels). Bad input never throws: every problem is a { path, message } saying how to fix it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Ajv as AjvClass, ErrorObject, ValidateFunction } from 'ajv';
import { parseDocument } from 'yaml';
import { closest } from '../../config/suggest.js';
import { CLUB_ID, CLUB_ID_FIX, TABLE_ID, TABLE_ID_FIX } from '../../config/ids.js';
import type { ConfigError } from '../../config/load.js';
import type { LogLevel } from '../../config/schema.js';
import { RESERVED_TABLE_NAMES } from '../../feed/topics.js';
import { VARIANTS, variantNames } from '../../laws/variants.js';
import { MOVEMENTS, movementByName } from '../movements/index.js';
import type { PairPlayers, Schedule, ScoreMethod } from '../types.js';
import { SCHEMA_HASH, validate as precompiledValidator } from './config-validator.generated.js';

/** When the director releases a tray's embargo (`club/<session>/released`). */
export type DirectorEmbargo = 'tray-complete' | 'session-end';

/** A validated director config, defaults filled in, the SQLite path resolved against the config file's folder. */
export interface DirectorConfig {
  club: { id: string };
  session: string;
  variant: string;
  /**
   * A trump suit declared for the whole sitting, no trump turned (Dup. IV.11; Memory Duplicate: "one suit being
   * declared trumps for the entire sitting"). The tables' original plays take it from their assignment.
   */
  trump?: 'S' | 'H' | 'D' | 'C';
  /** The movement by name and table count, or a schedule file (`tenace movement NAME --json > FILE`, or a club's own). */
  movement: { name: string; tables: number; boardsPerRound?: number; options?: Record<string, string | number | boolean>; schedule?: string };
  /** Table ids in schedule order: tables[k] is table number k+1 of the schedule. Default "1".."N". */
  tables: string[];
  /** The tables without readers, whose players enter each result on the director's hand-scoring terminal. */
  handScored?: string[];
  mqtt: { url: string; username?: string; password?: string; passwordFile?: string; clientId?: string; keepalive: number; baseTopic: string; protocolVersion: 4 | 5; maxMessageBytes: number };
  /** `sqlite:PATH` or `postgres://...`. */
  store: { url: string };
  http: { enabled: boolean; host: string; port: number; allowedHosts?: string[] };
  scoring: { method?: ScoreMethod };
  embargo: DirectorEmbargo;
  log: { level: LogLevel };
  /** Settings of single tables: `manual: true` for a hand-scored table (no hardware), shown on the director's page. */
  tableOptions?: Record<string, { manual?: boolean }>;
  /** The players of each pair (the console's entries take a pair's place). */
  pairs?: PairPlayers;
  /** Present when this is one of several director instances sharing the store (docs/championship.md). */
  cluster?: { partitions: number; leaseSeconds: number; heartbeatSeconds: number; instance?: string };
}

const TOPIC_ID = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$';
const TOPIC_ID_FIX = 'use 1-64 letters, digits, "-", "_" or "." (it becomes an MQTT topic level)';

/** The JSON schema of the director's config (ajv draft-07, with the `fix` annotation keyword as in src/config/schema.ts). */
export const directorConfigSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['club', 'session', 'movement'],
  properties: {
    club: {
      type: 'object', additionalProperties: false, required: ['id'], description: 'the club',
      properties: { id: { type: 'string', pattern: CLUB_ID, fix: `must be the club's short id, e.g. "ely"; ${CLUB_ID_FIX}` } },
    },
    session: {
      type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$',
      fix: 'must be the session name the tables use, such as "2025-03-14-evening": letters, digits, "-", "_" or ".", at most 64',
    },
    variant: { type: 'string', enum: variantNames(), default: 'duplicate-whist' },
    trump: {
      type: 'string', enum: ['S', 'H', 'D', 'C'],
      description: 'a trump suit declared for the sitting, no trump turned (Dup. IV.11, Memory Duplicate); leave it out to turn the trump',
    },
    movement: {
      type: 'object', additionalProperties: false, description: 'the movement of the session',
      properties: {
        schedule: {
          type: 'string', minLength: 1,
          fix: 'must be the path of a schedule JSON file (what `tenace movement NAME --json` prints); it replaces name and tables',
        },
        name: { type: 'string', minLength: 1, fix: `must name a movement: one of ${Object.keys(MOVEMENTS).join(', ')}` },
        tables: { type: 'integer', minimum: 1, maximum: 200, fix: 'must be the number of tables, a whole number from 1 to 200' },
        boardsPerRound: { type: 'integer', minimum: 1, maximum: 36, fix: 'must be the number of trays a table plays each round, 1 to 36' },
        options: {
          type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] },
          fix: 'must be a section of the movement\'s named choices, e.g. { even: relay } for a mitchell',
        },
      },
    },
    tables: {
      type: 'array', items: { type: 'string', pattern: TABLE_ID, fix: `must be a table id; ${TABLE_ID_FIX}` },
      fix: 'must list the table ids in schedule order (the first is table 1), e.g. ["1", "2", "3"]; leave it out for "1".."N"',
    },
    handScored: {
      type: 'array', items: { type: 'string', pattern: TOPIC_ID, fix: `must be a table id; ${TOPIC_ID_FIX}` },
      fix: 'must list the ids of the tables without readers, whose results are entered by hand, e.g. ["6", "7"]',
    },
    mqtt: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        url: {
          type: 'string', pattern: '^(mqtts?|wss?|tcp|ssl)://[^\\s]+$', default: 'mqtt://127.0.0.1:1883',
          fix: 'must be a broker URL such as "mqtt://127.0.0.1:1883" or "mqtts://broker:8883"',
        },
        username: { type: 'string', minLength: 1, fix: 'must be the MQTT user name (text; quote it if it looks like a number)' },
        password: { type: 'string', minLength: 1, fix: 'must be text; quote it if it looks like a number, or use passwordFile' },
        passwordFile: { type: 'string', minLength: 1, fix: 'must be the path of a file whose first line is the MQTT password' },
        clientId: { type: 'string', minLength: 1, maxLength: 128, fix: 'must be 1-128 characters (default: tenace-director-<club>-<session>-<store id>, which names the director\'s persistent session)' },
        keepalive: { type: 'integer', minimum: 0, maximum: 65535, default: 30, fix: 'must be a whole number of seconds from 0 to 65535' },
        protocolVersion: {
          type: 'integer', enum: [4, 5], default: 5,
          fix: 'must be 5 (MQTT 5: Mosquitto, EMQX) or 4 (MQTT 3.1.1, for a broker without MQTT 5, such as the embedded aedes)',
        },
        maxMessageBytes: {
          type: 'integer', minimum: 512, default: 262144,
          fix: 'must be the broker\'s message_size_limit in bytes, at least 512: 262144 for mosquitto/tenace.conf, 8388608 for mosquitto/central.conf',
        },
        baseTopic: {
          type: 'string', pattern: '^[^/+#\\s]+(/[^/+#\\s]+)*$', default: 'tenace',
          fix: 'must be one or more topic levels without "+", "#", spaces or a leading or trailing "/", e.g. "tenace"',
        },
      },
    },
    store: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        url: {
          type: 'string', pattern: '^(sqlite:.+|postgres(ql)?://.+)$', default: 'sqlite:tenace-director.db',
          fix: 'must be "sqlite:PATH" (a file, relative to this config) or "postgres://user@host:5432/database"',
        },
      },
    },
    http: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        enabled: { type: 'boolean', default: true, fix: 'must be true or false' },
        host: { type: 'string', minLength: 1, default: '127.0.0.1', fix: 'must be the address the director page listens on, e.g. "127.0.0.1" or "0.0.0.0"' },
        port: { type: 'integer', minimum: 0, maximum: 65535, default: 8090, fix: 'must be a TCP port from 1 to 65535 (0: any free port)' },
        allowedHosts: {
          type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9.-]{1,253}$' },
          fix: 'must list the host names the page is reached by through a reverse proxy, e.g. ["director.club.example"] (IP addresses, localhost and .local names need none)',
        },
      },
    },
    scoring: {
      type: 'object', additionalProperties: false, default: {},
      properties: { method: { type: 'string', enum: ['average', 'matchpoints', 'cross-imps', 'butler'] } },
    },
    embargo: { type: 'string', enum: ['tray-complete', 'session-end'], default: 'tray-complete' },
    cluster: {
      type: 'object', additionalProperties: false,
      description: 'several director instances sharing one store: each follows the tables of the partitions it holds a lease on',
      properties: {
        partitions: {
          type: 'integer', minimum: 1, maximum: 1024, default: 16,
          fix: 'must be the number of partitions the tables fall into (table n goes to partition (n - 1) mod partitions), 1 to 1024; a few per instance',
        },
        leaseSeconds: {
          type: 'integer', minimum: 2, maximum: 600, default: 10,
          fix: 'must be how long a lease lasts unrenewed, 2 to 600 seconds: a dead instance\'s tables wait this long for another',
        },
        heartbeatSeconds: {
          type: 'integer', minimum: 1, maximum: 300, default: 2,
          fix: 'must be how often an instance renews its leases, 1 to 300 seconds, well under leaseSeconds',
        },
        instance: {
          type: 'string', pattern: TOPIC_ID,
          fix: `must name this instance, distinct among the instances (default <host>-<pid>); ${TOPIC_ID_FIX}`,
        },
      },
    },
    tableOptions: {
      type: 'object', description: 'settings of single tables by table id, e.g. { "3": { manual: true } } for a table without hardware, scored by hand',
      additionalProperties: {
        type: 'object', additionalProperties: false,
        properties: { manual: { type: 'boolean', fix: 'must be true for a hand-scored table (no readers), false or left out for a smart table' } },
      },
    },
    pairs: {
      type: 'object', description: 'the players of each pair by pair id, e.g. { "1NS": { players: [{ name: "Ann Lee", member: "12345" }, { name: "Bo Kim" }] } }; what the director enters on the console takes a pair\'s place',
      additionalProperties: {
        type: 'object', additionalProperties: false, required: ['players'],
        properties: {
          players: {
            type: 'array', minItems: 1, maxItems: 4, fix: 'must list the pair\'s players, e.g. [{ name: "Ann Lee", member: "12345" }, { name: "Bo Kim" }]',
            items: {
              type: 'object', additionalProperties: false, required: ['name'],
              properties: {
                name: { type: 'string', minLength: 1, maxLength: 60, fix: 'must be the player\'s name, 1-60 characters' },
                member: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9 ./-]{0,19}$', fix: 'must be a member number: letters, digits, ".", "/" or "-", at most 20 (quote it in YAML)' },
              },
            },
          },
        },
      },
    },
    log: {
      type: 'object', additionalProperties: false, default: {},
      properties: { level: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' } },
    },
  },
} as const;

export type DirectorConfigResult = { ok: true; config: DirectorConfig } | { ok: false; errors: ConfigError[] };

/** The options the director config's validator is compiled with, ahead of time or at run time alike. */
export const DIRECTOR_AJV_OPTIONS = { allErrors: true, useDefaults: true, verbose: true, strict: true, allowUnionTypes: true } as const;

/** A digest of the director config's schema, to tell whether the generated validator was built from it. */
export function directorConfigSchemaHash(): string {
  return createHash('sha256').update(JSON.stringify(directorConfigSchema)).digest('hex').slice(0, 32);
}

let validator: ValidateFunction | undefined;

// The validator compiled ahead of time (./config-validator-source.ts) when it was built from this schema; otherwise
// ajv's compiler, loaded only then: it cost the director 8 MB and 64 modules at every start (issue 18). The schema
// holds the variant and movement names, so adding either makes the generated file stale until it is regenerated.
function getValidator(): ValidateFunction {
  if (!validator) {
    if (SCHEMA_HASH === directorConfigSchemaHash()) {
      validator = precompiledValidator as unknown as ValidateFunction;
    } else {
      const { Ajv } = createRequire(import.meta.url)('ajv') as { Ajv: typeof AjvClass };
      const ajv = new Ajv({ ...DIRECTOR_AJV_OPTIONS });
      // `fix` is an annotation carrying the error sentence; it takes no part in validation.
      ajv.addKeyword({ keyword: 'fix', schemaType: 'string' });
      validator = ajv.compile(directorConfigSchema);
    }
  }
  return validator;
}

/** Load and check the director's config file; never throws for bad input. */
export function loadDirectorConfig(path: string): DirectorConfigResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'it does not exist: check the path, or copy config/club.example.yaml there' : (e as Error).message;
    return { ok: false, errors: [{ path: '', message: `cannot read config file ${path}: ${why}` }] };
  }
  return parseDirectorConfig(text, dirname(resolve(path)));
}

/** Check config text (YAML or JSON); relative SQLite paths resolve against `baseDir`. */
export function parseDirectorConfig(text: string, baseDir = process.cwd()): DirectorConfigResult {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    return { ok: false, errors: doc.errors.map((e) => ({ path: '', line: e.linePos?.[0]?.line, message: `YAML syntax: ${e.message.split('\n')[0]}` })) };
  }
  const raw = doc.toJS() as unknown;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, errors: [{ path: '', message: 'the config must be a YAML mapping with at least club, session and movement' }] };
  }
  const data = raw as Record<string, unknown>;
  // YAML reads `session: 2025` and `tables: [1, 2]` as numbers; ids are names.
  if (Number.isSafeInteger(data.session)) data.session = String(data.session);
  const club = data.club as Record<string, unknown> | undefined;
  if (club && typeof club === 'object' && Number.isSafeInteger(club.id)) club.id = String(club.id);
  // A section with every line commented out reads as null: the same as leaving it out.
  for (const k of ['mqtt', 'store', 'http', 'scoring', 'log']) if (data[k] === null) delete data[k];
  // `cluster:` with every line commented out still means "one of several instances", with the defaults.
  if (data.cluster === null) data.cluster = {};
  for (const k of ['tables', 'handScored']) if (Array.isArray(data[k])) data[k] = (data[k] as unknown[]).map((t) => (Number.isSafeInteger(t) ? String(t) : t));

  const validate = getValidator();
  const errors: ConfigError[] = validate(data) ? [] : mapErrors(validate.errors ?? []);
  if (errors.length === 0) errors.push(...crossChecks(data as unknown as DirectorConfig, baseDir));
  if (errors.length > 0) return { ok: false, errors };
  const config = data as unknown as DirectorConfig;
  if (!config.tables) config.tables = Array.from({ length: config.movement.tables }, (_, i) => String(i + 1));
  if (config.store.url.startsWith('sqlite:')) {
    const p = config.store.url.slice('sqlite:'.length);
    if (p !== ':memory:' && !isAbsolute(p)) config.store.url = `sqlite:${resolve(baseDir, p)}`;
  }
  if (config.mqtt.passwordFile && !isAbsolute(config.mqtt.passwordFile)) config.mqtt.passwordFile = resolve(baseDir, config.mqtt.passwordFile);
  return { ok: true, config };
}

interface SchemaLike { fix?: string; type?: string; enum?: readonly string[]; properties?: Record<string, SchemaLike> }

function pathOf(pointer: string, extra?: string): string {
  const segs = pointer === '' ? [] : pointer.slice(1).split('/');
  if (extra !== undefined) segs.push(extra);
  return segs.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
}

function mapErrors(list: readonly ErrorObject[]): ConfigError[] {
  const out: ConfigError[] = [];
  const seen = new Set<string>();
  const push = (path: string, message: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    out.push({ path, message });
  };
  for (const e of list) {
    const ps = e.parentSchema as SchemaLike | undefined;
    if (e.keyword === 'required') {
      const key = (e.params as { missingProperty: string }).missingProperty;
      const child = ps?.properties?.[key];
      push(pathOf(e.instancePath, key), `is required${child?.type === 'object' ? `: add "${key}:" with ${Object.keys(child.properties ?? {}).join(', ')}` : child?.fix ? `; it ${child.fix}` : ''}`);
    } else if (e.keyword === 'additionalProperties') {
      const key = (e.params as { additionalProperty: string }).additionalProperty;
      const here = Object.keys(ps?.properties ?? {});
      const near = closest(key, here);
      push(pathOf(e.instancePath, key), `is not a known setting: ${near ? `did you mean "${near}"?` : `the settings here are ${here.join(', ')}`}`);
    } else if (e.keyword === 'enum') {
      const allowed = (e.schema as readonly string[]).map(String);
      const near = typeof e.data === 'string' ? closest(e.data, allowed) : undefined;
      push(pathOf(e.instancePath), `must be one of ${allowed.join(', ')} (got ${JSON.stringify(e.data)})${near ? `: did you mean "${near}"?` : ''}`);
    } else if (e.keyword === 'type' && e.schema === 'object') {
      push(pathOf(e.instancePath), 'must be a section (key: value lines), not a single value or a list');
    } else {
      const shown = typeof e.data === 'object' ? '' : ` (got ${JSON.stringify(e.data)})`;
      push(pathOf(e.instancePath), `${ps?.fix ?? `must satisfy ${e.keyword}: ${e.message ?? ''}`}${pathOf(e.instancePath).endsWith('password') ? '' : shown}`);
    }
  }
  return out;
}

function crossChecks(c: DirectorConfig, baseDir: string): ConfigError[] {
  const errors: ConfigError[] = [];
  if (c.movement.schedule !== undefined) {
    const file = isAbsolute(c.movement.schedule) ? c.movement.schedule : resolve(baseDir, c.movement.schedule);
    try {
      const s = readSchedule(file);
      c.movement.schedule = file;
      c.movement.name = s.movement;
      c.movement.tables = s.tables;
      c.movement.boardsPerRound = s.boardsPerRound;
    } catch (e) {
      errors.push({ path: 'movement.schedule', message: (e as Error).message });
      return errors;
    }
  } else if (c.movement.name === undefined || c.movement.tables === undefined) {
    errors.push({ path: c.movement.name === undefined ? 'movement.name' : 'movement.tables', message: `is required: give the movement's name and its number of tables (e.g. name: mitchell, tables: 7), or a schedule file` });
    return errors;
  }
  const m = c.movement.schedule !== undefined ? undefined : movementByName(c.movement.name);
  if (c.movement.schedule !== undefined) {
    // A schedule file is taken as it is.
  } else if (!m) {
    const near = closest(c.movement.name, Object.keys(MOVEMENTS));
    errors.push({ path: 'movement.name', message: `"${c.movement.name}" is not a movement${near ? `: did you mean "${near}"?` : ''}; use one of ${Object.keys(MOVEMENTS).join(', ')}` });
  } else {
    let problem: string | null = null;
    try {
      problem = m.check({ tables: c.movement.tables, boardsPerRound: c.movement.boardsPerRound, options: c.movement.options });
    } catch {
      // A movement not written yet cannot check; the service says so when it generates the schedule.
    }
    if (problem) errors.push({ path: 'movement', message: problem });
  }
  if (c.tables) {
    if (c.tables.length !== c.movement.tables) {
      errors.push({ path: 'tables', message: `lists ${c.tables.length} table ids but movement.tables is ${c.movement.tables}: give one id per table, in schedule order` });
    }
    const seen = new Map<string, number>();
    c.tables.forEach((t, i) => {
      if (RESERVED_TABLE_NAMES.has(t)) errors.push({ path: `tables[${i}]`, message: `"${t}" is reserved for the club's own topics; choose another table id` });
      const j = seen.get(t);
      if (j !== undefined) errors.push({ path: `tables[${i}]`, message: `repeats "${t}" of tables[${j}]: give each table its own id` });
      else seen.set(t, i);
    });
  }
  const ids = c.tables ?? Array.from({ length: c.movement.tables ?? 0 }, (_, i) => String(i + 1));
  c.handScored?.forEach((t, i) => {
    if (!ids.includes(t)) errors.push({ path: `handScored[${i}]`, message: `"${t}" is not one of the session's tables (${ids.join(', ')}); list the ids of tables without readers` });
  });
  for (const t of Object.keys(c.tableOptions ?? {})) {
    if (!ids.includes(t)) errors.push({ path: `tableOptions.${t}`, message: `names no table of this session; use one of ${ids.join(', ')}` });
  }
  // "No trump is turned in Memory Duplicate; one suit being declared trumps for the entire sitting."
  if (c.trump === undefined && c.movement.name === 'memory-duplicate' && VARIANTS[c.variant]?.trump === 'turned') {
    errors.push({ path: 'trump', message: 'is required for memory-duplicate: "no trump is turned in Memory Duplicate; one suit being declared trumps for the entire sitting"; add trump: H (or S, D, C)' });
  }
  if (c.trump !== undefined && VARIANTS[c.variant]?.trump !== 'turned') {
    errors.push({ path: 'trump', message: `declares a trump suit for the sitting, but in ${c.variant} no trump is turned to replace (${VARIANTS[c.variant]?.trump === 'contract' ? 'the auction names it' : 'its own rule sets it'}): leave trump out` });
  }
  if (c.cluster && c.cluster.heartbeatSeconds * 2 > c.cluster.leaseSeconds) {
    errors.push({ path: 'cluster.heartbeatSeconds', message: `is ${c.cluster.heartbeatSeconds} s against a lease of ${c.cluster.leaseSeconds} s: make it at most half the lease, or a slow heartbeat loses the lease to another instance` });
  }
  if (c.mqtt.password !== undefined && c.mqtt.passwordFile !== undefined) {
    errors.push({ path: 'mqtt.passwordFile', message: 'cannot be used together with mqtt.password: keep one of the two' });
  }
  return errors;
}

/** Read a schedule JSON file; throws a sentence saying what is wrong with it. */
export function readSchedule(file: string): Schedule {
  let s: Schedule;
  try {
    s = JSON.parse(readFileSync(file, 'utf8')) as Schedule;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? `${file} does not exist: write it with tenace movement NAME --tables N --json > ${file}` : `${file} is not a schedule: ${(e as Error).message}`);
  }
  if (typeof s !== 'object' || s === null || typeof s.movement !== 'string' || !Number.isInteger(s.tables) || !Array.isArray(s.rounds)) {
    throw new Error(`${file} is not a schedule: it needs "movement", "tables" and "rounds" (what tenace movement NAME --json prints)`);
  }
  return s;
}

/** The director's config schema for editors (config/club.schema.json): `fix` sentences become descriptions. */
export function publishedDirectorSchemaText(): string {
  const convert = (node: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'fix') continue;
      if (k === 'properties') out.properties = Object.fromEntries(Object.entries(v as Record<string, Record<string, unknown>>).map(([n, ch]) => [n, convert(ch)]));
      else if (k === 'items' && typeof v === 'object' && v !== null && !Array.isArray(v)) out.items = convert(v as Record<string, unknown>);
      else out[k] = Array.isArray(v) ? [...v] : v;
    }
    if (typeof node.fix === 'string' && out.description === undefined) out.description = node.fix.replace(/^must be /, '');
    return out;
  };
  const s = convert(directorConfigSchema as unknown as Record<string, unknown>);
  const props = s.properties as Record<string, Record<string, unknown>>;
  // YAML ids may be written as numbers (`session: 2025`, `tables: [1, 2]`): the loader takes their digits.
  props.session = { ...props.session, type: ['string', 'integer'] };
  props.tables = { ...props.tables, items: { ...(props.tables.items as object), type: ['string', 'integer'] } };
  const clubId = (props.club.properties as Record<string, Record<string, unknown>>).id;
  (props.club.properties as Record<string, unknown>).id = { ...clubId, type: ['string', 'integer'] };
  return `${JSON.stringify({
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'tenace director configuration',
    description: 'The YAML config of `tenace director` (config/club.example.yaml explains each setting).',
    ...s,
  }, null, 2)}\n`;
}
