// Environment overrides: TENACE_<SECTION>_<KEY>, derived from the schema so that every scalar setting has one and
// the list can never drift from the schema. Values are strings; they are coerced to the schema's type here and
// then validated with the rest of the file, so a bad override gets the same error (plus the variable's name).
//
//   club.id                      TENACE_CLUB_ID
//   session                      TENACE_SESSION
//   journal.groupCommitMs        TENACE_JOURNAL_GROUP_COMMIT_MS
//   mqtt.password                TENACE_MQTT_PASSWORD
//   hardware.scanner.vendorId    TENACE_HARDWARE_SCANNER_VENDOR_ID   (accepts 0x05e0)
//   hardware.decks               TENACE_HARDWARE_DECKS               (comma-separated list)
//
// Lists of objects (hardware.bridges) have no override: they belong in the file. An empty variable is ignored, as
// systemd EnvironmentFile= lines such as `TENACE_MQTT_PASSWORD=` usually mean "not set".
import { configSchema } from './schema.js';
import { closest } from './suggest.js';

export const ENV_PREFIX = 'TENACE_';

// Variables with the prefix that are not settings, so they never draw an "unknown variable" warning.
const NOT_SETTINGS = new Set(['TENACE_CONFIG']);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** One overridable setting. */
export interface EnvOverride {
  /** The variable, e.g. TENACE_MQTT_URL. */
  name: string;
  /** The setting's path in the config, e.g. ['mqtt', 'url']. */
  path: string[];
  /** The schema type the string is coerced to. */
  type: 'string' | 'integer' | 'number' | 'boolean' | 'string[]';
  description: string;
}

interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  enum?: readonly string[];
  fix?: string;
}

function snake(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

function collect(node: SchemaNode, path: string[], out: EnvOverride[]): void {
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const p = [...path, key];
    if (child.type === 'object') {
      collect(child, p, out);
      continue;
    }
    let type: EnvOverride['type'];
    if (child.type === 'array') {
      if (child.items?.type !== 'string') continue;
      type = 'string[]';
    } else {
      type = child.type as EnvOverride['type'];
    }
    const description = child.enum ? `one of ${child.enum.join(', ')}` : (child.fix ?? type).replace(/^must be /, '');
    out.push({ name: ENV_PREFIX + p.map(snake).join('_'), path: p, type, description });
  }
}

let cached: EnvOverride[] | undefined;

/** Every environment override the schema allows, in schema order (for docs and `check-config --env`). */
export function envOverrides(): EnvOverride[] {
  if (!cached) {
    cached = [];
    collect(configSchema as unknown as SchemaNode, [], cached);
  }
  return cached;
}

/** Coerce an environment string to the setting's type; a string that does not fit is returned as is, so the
 *  schema reports it. */
export function coerceEnvValue(raw: string, type: EnvOverride['type']): Json {
  const s = raw.trim();
  switch (type) {
    case 'integer':
    case 'number': {
      if (/^[+-]?0x[0-9a-f]+$/i.test(s)) return Number.parseInt(s, 16);
      if (type === 'integer' ? /^[+-]?\d+$/.test(s) : s !== '' && Number.isFinite(Number(s))) return Number(s);
      return raw;
    }
    case 'boolean': {
      const l = s.toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(l)) return true;
      if (['false', '0', 'no', 'off'].includes(l)) return false;
      return raw;
    }
    case 'string[]':
      return s.split(',').map((x) => x.trim()).filter((x) => x !== '');
    default:
      // Secrets and ids keep their exact bytes, spaces included.
      return raw;
  }
}

export interface EnvResult {
  /** Config path (e.g. "mqtt.url") to the variable that set it, for error messages. */
  fromEnv: Map<string, string>;
  /** Variables with the TENACE_ prefix that match no setting. */
  unknown: { name: string; suggestion?: string }[];
}

/** Apply TENACE_* overrides to parsed config data in place (before validation); returns where each came from. */
export function applyEnvOverrides(data: Record<string, unknown>, env: Record<string, string | undefined>, pathKey: (p: readonly (string | number)[]) => string): EnvResult {
  const known = envOverrides();
  const byName = new Map(known.map((o) => [o.name, o]));
  const fromEnv = new Map<string, string>();
  const unknown: EnvResult['unknown'] = [];
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith(ENV_PREFIX) || raw === undefined || raw === '') continue;
    const o = byName.get(name);
    if (!o) {
      if (!NOT_SETTINGS.has(name)) unknown.push({ name, suggestion: closest(name, known.map((k) => k.name)) });
      continue;
    }
    let target: Record<string, unknown> = data;
    let reachable = true;
    for (const seg of o.path.slice(0, -1)) {
      const next = target[seg];
      if (next === undefined || next === null) target[seg] = {};
      else if (typeof next !== 'object' || Array.isArray(next)) {
        // The file has a wrong shape here; validation reports it, and the override has nowhere to go.
        reachable = false;
        break;
      }
      target = target[seg] as Record<string, unknown>;
    }
    if (!reachable) continue;
    target[o.path[o.path.length - 1]] = coerceEnvValue(raw, o.type);
    fromEnv.set(pathKey(o.path), name);
  }
  return { fromEnv, unknown };
}
