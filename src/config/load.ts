// Load the daemon's YAML config: parse, apply TENACE_* overrides, fill defaults and validate against ./schema.ts,
// then a few checks a schema cannot express (duplicates, settings that need each other). Bad input never throws:
// every problem becomes a { path, message } whose message says how to fix it, with the YAML line when known.
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type { Ajv as AjvClass, ErrorObject, ValidateFunction } from 'ajv';
import { LineCounter, isMap, isNode, isScalar, parseDocument, type Document } from 'yaml';
import { deviceProblem } from './devices.js';
import { applyEnvOverrides } from './env.js';
import { RESERVED_TABLE_NAMES } from '../feed/topics.js';
import { rulesFor } from '../laws/score/index.js';
import { variantNames } from '../laws/variants.js';
import { PATH_FIELDS, configSchema, type TenaceConfig } from './schema.js';
import { closest } from './suggest.js';
import { SCHEMA_HASH, validate as precompiledValidator } from './config-validator.generated.js';
import { AJV_OPTIONS, configSchemaHash } from './validator-source.js';

/** One problem with a config: where it is, and a sentence that says how to fix it. */
export interface ConfigError {
  /** Dotted path with list indices, e.g. "hardware.bridges[0].readers[2].seat"; "" for the file as a whole. */
  path: string;
  message: string;
  /** 1-based line in the YAML file, when the problem is at a place in the file. */
  line?: number;
}

export type ConfigResult =
  | { ok: true; config: TenaceConfig; warnings: ConfigError[] }
  | { ok: false; errors: ConfigError[]; warnings: ConfigError[] };

export interface ParseOptions {
  /** Environment for TENACE_* overrides; defaults to none (loadConfig passes process.env). */
  env?: Record<string, string | undefined>;
  /** Folder that relative paths are resolved against; defaults to the current folder. */
  baseDir?: string;
}

type Seg = string | number;

/** Format a path as people write it: hardware.bridges[0].readers[2].seat. */
export function formatPath(segs: readonly Seg[]): string {
  let out = '';
  for (const s of segs) out += typeof s === 'number' ? `[${s}]` : out === '' ? s : `.${s}`;
  return out;
}

let validator: ValidateFunction | undefined;

// The validator compiled ahead of time (./validator-source.ts) when it was built from this schema; otherwise ajv's
// compiler, loaded only then (it costs about 100 ms and 8 MB at every start).
function getValidator(): ValidateFunction {
  if (!validator) {
    if (SCHEMA_HASH === configSchemaHash()) {
      validator = precompiledValidator as unknown as ValidateFunction;
    } else {
      const { Ajv } = createRequire(import.meta.url)('ajv') as { Ajv: typeof AjvClass };
      const ajv = new Ajv({ ...AJV_OPTIONS });
      // `fix` is an annotation carrying the error sentence; it takes no part in validation.
      ajv.addKeyword({ keyword: 'fix', schemaType: 'string' });
      validator = ajv.compile(configSchema);
    }
  }
  return validator;
}

/** Load, override, default and validate the config file at `path`; never throws for bad input. */
export function loadConfig(path: string, env: Record<string, string | undefined> = process.env): ConfigResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'it does not exist: check the path, or copy config/tenace.example.yaml there'
      : code === 'EACCES' ? 'permission denied: make it readable by the daemon\'s user'
        : code === 'EISDIR' ? 'it is a folder: give the path of the YAML file'
          : (e as Error).message;
    return { ok: false, errors: [{ path: '', message: `cannot read config file ${path}: ${why}` }], warnings: [] };
  }
  return parseConfig(text, { env, baseDir: dirname(resolve(path)) });
}

/** Validate config text (YAML or JSON); the same as loadConfig without the file. */
export function parseConfig(text: string, opts: ParseOptions = {}): ConfigResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  const warnings: ConfigError[] = [];
  if (doc.errors.length > 0) {
    const errors = doc.errors.map((e) => ({
      path: '',
      line: e.linePos?.[0]?.line,
      // prettyErrors appends the offending line and a caret; the first line is the sentence.
      message: `YAML syntax: ${e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`,
    }));
    return { ok: false, errors, warnings };
  }
  for (const w of doc.warnings) warnings.push({ path: '', line: w.linePos?.[0]?.line, message: w.message.split('\n')[0] });

  let raw: unknown;
  try {
    raw = doc.toJS();
  } catch (e) {
    // yaml refuses documents such as alias bombs only when converting them.
    return { ok: false, errors: [{ path: '', message: `YAML: ${(e as Error).message}` }], warnings };
  }
  if (raw === null || raw === undefined) {
    return { ok: false, errors: [{ path: '', message: 'the config is empty: it needs at least "club: { id: ... }" and "table: { id: ... }"' }], warnings };
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, errors: [{ path: '', line: 1, message: 'the config must be a YAML mapping of sections (club, table, journal, mqtt, ...), not a single value or a list' }], warnings };
  }
  const data = raw as Record<string, unknown>;
  normaliseIds(data);
  const { fromEnv, unknown } = applyEnvOverrides(data, opts.env ?? {}, formatPath);
  for (const u of unknown) {
    warnings.push({ path: '', message: `environment variable ${u.name} is not a setting and is ignored${u.suggestion ? `: did you mean ${u.suggestion}?` : ''}` });
  }

  const validate = getValidator();
  const errors: ConfigError[] = [];
  if (!validate(data)) errors.push(...mapAjvErrors(validate.errors ?? []));
  errors.push(...crossChecks(data, warnings));

  // Attach the place: a YAML line for values from the file, the variable's name for overrides.
  for (const e of [...errors, ...warnings]) {
    if (!e.path) continue;
    const envName = envSource(e.path, fromEnv);
    if (envName) e.message += ` (set by ${envName})`;
    else if (e.line === undefined) e.line = lineOf(doc, lineCounter, e.path);
  }
  if (errors.length > 0) return { ok: false, errors: byLine(dedupe(errors)), warnings: byLine(warnings) };
  resolvePaths(data, opts.baseDir ?? process.cwd());
  return { ok: true, config: data as unknown as TenaceConfig, warnings: byLine(warnings) };
}

// In file order, so the list reads top to bottom beside the file; overrides and whole-file notes come last.
function byLine(list: ConfigError[]): ConfigError[] {
  return list.map((e, i) => ({ e, i }))
    .sort((a, b) => (a.e.line ?? Infinity) - (b.e.line ?? Infinity) || a.i - b.i)
    .map(({ e }) => e);
}

/** Format errors (or warnings) one a line, as `file:line: path: message`. */
export function formatConfigErrors(errors: readonly ConfigError[], file?: string): string {
  return errors.map((e) => {
    const where = file ? (e.line !== undefined ? `${file}:${e.line}: ` : `${file}: `) : (e.line !== undefined ? `line ${e.line}: ` : '');
    return `${where}${e.path ? `${e.path}: ` : ''}${e.message}`;
  }).join('\n') + (errors.length ? '\n' : '');
}

/** Problems with the files a valid config refers to (TLS files, password file, decks, the journal folder). */
export function checkConfigFiles(config: TenaceConfig): ConfigError[] {
  const errors: ConfigError[] = [];
  const mustRead = (path: string, file: string | undefined, what: string) => {
    if (file === undefined) return;
    try {
      accessSync(file, constants.R_OK);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      errors.push({ path, message: code === 'ENOENT' ? `${file} does not exist: give the path of ${what}` : `${file} is not readable by this user: fix its permissions (${code})` });
    }
  };
  mustRead('mqtt.passwordFile', config.mqtt.passwordFile, 'the MQTT password file');
  mustRead('mqtt.ca', config.mqtt.ca, 'the CA certificate');
  mustRead('mqtt.cert', config.mqtt.cert, 'the client certificate');
  mustRead('mqtt.key', config.mqtt.key, 'the client key');
  config.hardware.decks.forEach((d, i) => mustRead(`hardware.decks[${i}]`, d, 'a deck file (tenace enrol writes them)'));
  try {
    const st = statSync(config.journal.dir);
    if (!st.isDirectory()) errors.push({ path: 'journal.dir', message: `${config.journal.dir} is not a folder: point it at a folder (it is created when missing)` });
    else accessSync(config.journal.dir, constants.W_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') errors.push({ path: 'journal.dir', message: `${config.journal.dir} is not writable by this user: give it to the daemon's user (${code})` });
  }
  return errors;
}

/**
 * Warnings about the serial devices a valid config names (bridges, serial scanner) that are not there or cannot be
 * opened now. Only warnings: the daemon waits for a device that is plugged in later.
 */
export function checkConfigDevices(config: TenaceConfig): ConfigError[] {
  const warnings: ConfigError[] = [];
  config.hardware.bridges.forEach((b, i) => {
    const problem = deviceProblem(b.port, 'bridge');
    if (problem) warnings.push({ path: `hardware.bridges[${i}].port`, message: problem });
  });
  const s = config.hardware.scanner;
  if (s.mode === 'serial' && s.port) {
    const problem = deviceProblem(s.port, 'scanner');
    if (problem) warnings.push({ path: 'hardware.scanner.port', message: problem });
  }
  return warnings;
}

// YAML reads `id: 7` as a number; ids are names, so a whole number is taken as its digits.
function normaliseIds(data: Record<string, unknown>): void {
  const fixId = (o: unknown, key: string) => {
    if (o && typeof o === 'object' && !Array.isArray(o)) {
      const r = o as Record<string, unknown>;
      if (Number.isSafeInteger(r[key]) && (r[key] as number) >= 0) r[key] = String(r[key]);
    }
  };
  fixId(data.club, 'id');
  fixId(data.table, 'id');
  fixId(data, 'session');
  const hw = data.hardware as Record<string, unknown> | undefined;
  if (hw && typeof hw === 'object' && Array.isArray(hw.bridges)) for (const b of hw.bridges) fixId(b, 'id');
}

function pointerToSegs(pointer: string): Seg[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => {
    const u = s.replace(/~1/g, '/').replace(/~0/g, '~');
    return /^\d+$/.test(u) ? Number(u) : u;
  });
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'a section (key: value lines)',
  array: 'a list',
};

function shown(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value !== null && typeof value === 'object') return 'a section';
  const s = JSON.stringify(value) ?? String(value);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function isSecret(segs: readonly Seg[]): boolean {
  return segs[segs.length - 1] === 'password';
}

function got(segs: readonly Seg[], value: unknown): string {
  return isSecret(segs) ? '' : ` (got ${shown(value)})`;
}

interface SchemaLike { fix?: string; type?: string; enum?: readonly string[]; properties?: Record<string, SchemaLike>; description?: string }

function mustSentence(s: SchemaLike | undefined): string {
  if (!s) return 'must be set';
  if (s.enum) return `must be one of ${s.enum.join(', ')}`;
  if (s.fix) return s.fix;
  if (s.type === 'object') return `must be a section${s.description ? ` for ${s.description}` : ''}`;
  return `must be ${TYPE_WORDS[s.type ?? ''] ?? 'set'}`;
}

function mapAjvErrors(list: readonly ErrorObject[]): ConfigError[] {
  const out: (ConfigError & { keyword: string })[] = [];
  for (const e of list) {
    const segs = pointerToSegs(e.instancePath);
    const ps = e.parentSchema as SchemaLike | undefined;
    switch (e.keyword) {
      case 'required': {
        const key = (e.params as { missingProperty: string }).missingProperty;
        const child = ps?.properties?.[key];
        const at = [...segs, key];
        const example = child?.type === 'object' ? `: add "${key}:" with ${Object.keys(child.properties ?? {}).map((k) => `"${k}"`).join(', ')}` : `; it ${mustSentence(child)}`;
        out.push({ path: formatPath(at), message: `is required${example}`, keyword: e.keyword });
        break;
      }
      case 'additionalProperties': {
        const key = (e.params as { additionalProperty: string }).additionalProperty;
        const here = Object.keys(ps?.properties ?? {});
        const near = closest(key, here);
        const elsewhere = near ? undefined : findKeyElsewhere(key);
        const hint = near ? `did you mean "${near}"?`
          : elsewhere ? `did you mean ${elsewhere}?`
            : `the settings here are ${here.join(', ')}`;
        out.push({ path: formatPath([...segs, key]), message: `is not a known setting: ${hint}`, keyword: e.keyword });
        break;
      }
      case 'enum': {
        const allowed = (e.schema as readonly string[]).map(String);
        const near = typeof e.data === 'string' ? closest(e.data, allowed) : undefined;
        // A numeric choice (score.gamePoints) has a sentence saying what the numbers mean; a word list speaks for itself.
        const msg = ps?.fix ? `${ps.fix}${got(segs, e.data)}` : `must be one of ${allowed.join(', ')}${got(segs, e.data)}${near ? `: did you mean "${near}"?` : ''}`;
        out.push({ path: formatPath(segs), message: msg, keyword: ps?.fix ? 'enum-fix' : e.keyword });
        break;
      }
      case 'type': {
        let msg = `${ps?.fix ?? `must be ${TYPE_WORDS[String(e.schema)] ?? String(e.schema)}`}${got(segs, e.data)}`;
        if (e.schema === 'boolean' && typeof e.data === 'string' && /^(yes|no|on|off|y|n)$/i.test(e.data)) {
          msg += '; YAML 1.2 reads yes/no/on/off as text, so write true or false';
        } else if (e.schema === 'string' && typeof e.data === 'number') {
          msg += '; put it in quotes';
        } else if ((e.schema === 'integer' || e.schema === 'number') && typeof e.data === 'string' && /^\s*[+-]?\d+(\.\d+)?\s*$/.test(e.data)) {
          msg += '; remove the quotes';
        }
        out.push({ path: formatPath(segs), message: msg, keyword: 'type' });
        break;
      }
      case 'if':
        break;
      default:
        // pattern, minLength, minimum, maximum, minItems...: the schema's own sentence says what is wanted.
        out.push({ path: formatPath(segs), message: `${ps?.fix ?? `must satisfy ${e.keyword}: ${e.message ?? ''}`}${got(segs, e.data)}`, keyword: e.keyword });
    }
  }
  // A value of the wrong type that is also outside an enum gets one message, the one listing the choices; where both
  // carry the `fix` sentence, the type's, which adds the YAML hint ("remove the quotes").
  const enumPaths = new Set(out.filter((o) => o.keyword === 'enum').map((o) => o.path));
  const typePaths = new Set(out.filter((o) => o.keyword === 'type').map((o) => o.path));
  return out.filter((o) => !(o.keyword === 'type' && enumPaths.has(o.path)) && !(o.keyword === 'enum-fix' && typePaths.has(o.path)))
    .map(({ path, message }) => ({ path, message }));
}

// An unknown key that is a setting of another section ("port" under mqtt): point at the section it belongs to.
function findKeyElsewhere(key: string): string | undefined {
  const hits: string[] = [];
  const walk = (node: SchemaLike, path: string[]) => {
    for (const [k, child] of Object.entries(node.properties ?? {})) {
      if (k === key) hits.push([...path, k].join('.'));
      if (child.type === 'object') walk(child, [...path, k]);
    }
  };
  walk(configSchema as unknown as SchemaLike, []);
  return hits.length > 0 && hits.length <= 3 ? hits.map((h) => `"${h}"`).join(' or ') : undefined;
}

function dedupe(errors: ConfigError[]): ConfigError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const k = `${e.path}\u0000${e.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function envSource(path: string, fromEnv: Map<string, string>): string | undefined {
  for (const [p, name] of fromEnv) if (path === p || path.startsWith(`${p}[`) || path.startsWith(`${p}.`)) return name;
  return undefined;
}

function parsePath(path: string): Seg[] {
  const segs: Seg[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) segs.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return segs;
}

// The line of the deepest node on the path that exists in the file: the value itself, or the key for an unknown
// key, or the parent section for a missing one.
function lineOf(doc: Document, lc: LineCounter, path: string): number | undefined {
  const segs = parsePath(path);
  for (let n = segs.length; n >= 0; n--) {
    const parent = n === 0 ? doc.contents : doc.getIn(segs.slice(0, n - 1), true);
    if (n > 0 && isMap(parent)) {
      const key = segs[n - 1];
      const pair = parent.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
      if (pair && isNode(pair.key) && pair.key.range) return lc.linePos(pair.key.range[0]).line;
    }
    const node = n === 0 ? doc.contents : doc.getIn(segs.slice(0, n), true);
    if (isNode(node) && node.range) return lc.linePos(node.range[0]).line;
  }
  return undefined;
}

function crossChecks(data: Record<string, unknown>, warnings: ConfigError[]): ConfigError[] {
  const errors: ConfigError[] = [];
  const obj = (v: unknown): Record<string, unknown> | undefined =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

  const mqtt = obj(data.mqtt);
  if (mqtt) {
    if (mqtt.password !== undefined && mqtt.passwordFile !== undefined) {
      errors.push({ path: 'mqtt.passwordFile', message: 'cannot be used together with mqtt.password: keep one of the two' });
    }
    if (mqtt.cert !== undefined && mqtt.key === undefined) errors.push({ path: 'mqtt.key', message: 'is required when mqtt.cert is set: give the client certificate\'s private key' });
    if (mqtt.key !== undefined && mqtt.cert === undefined) errors.push({ path: 'mqtt.cert', message: 'is required when mqtt.key is set: give the client certificate' });
    if (mqtt.rejectUnauthorized === false) warnings.push({ path: 'mqtt.rejectUnauthorized', message: 'is false: any broker certificate is accepted, so use it only in a lab' });
  }

  // The same reserved names as the director's tables (src/club/director/config.ts): one rule for table ids.
  const tableId = obj(data.table)?.id;
  if (typeof tableId === 'string' && RESERVED_TABLE_NAMES.has(tableId)) {
    errors.push({ path: 'table.id', message: `"${tableId}" is reserved for the club's own topics; choose another table id` });
  }

  errors.push(...scoreChecks(data.variant, obj(data.score)));

  const hw = obj(data.hardware);
  const scanner = obj(hw?.scanner);
  if (scanner) {
    if (scanner.mode === 'serial' && scanner.port === undefined) {
      errors.push({ path: 'hardware.scanner.port', message: 'is required when hardware.scanner.mode is serial: give the scanner\'s serial device, e.g. /dev/tenace-scanner' });
    }
    // A hid scanner is opened by its hidraw path when port names one (the udev rules' /dev/tenace-scanner-hid),
    // otherwise by its USB ids.
    if (scanner.mode === 'hid' && scanner.port === undefined) {
      for (const k of ['vendorId', 'productId']) {
        if (scanner[k] === undefined) errors.push({ path: `hardware.scanner.${k}`, message: `is required when hardware.scanner.mode is hid and no port is given: give the scanner's USB ${k === 'vendorId' ? 'vendor' : 'product'} id as shown by lsusb, e.g. 0x05e0, or set port: /dev/tenace-scanner-hid` });
      }
    }
    if (scanner.mode === 'serial') warnUnstablePort(scanner.port, 'hardware.scanner.port', warnings);
  }

  const bridges = Array.isArray(hw?.bridges) ? hw.bridges : [];
  if (bridges.length > 0 && (!Array.isArray(hw?.decks) || hw.decks.length === 0)) {
    // Without a deck every card read is an unknown tag: the table would judge nothing.
    errors.push({ path: 'hardware.decks', message: `is empty but ${bridges.length === 1 ? 'a bridge is' : `${bridges.length} bridges are`} configured: every card would be an unknown tag; list the deck files of the table's packs (tenace enrol writes them), e.g. decks: [decks/red.deck.json, decks/blue.deck.json]` });
  }
  const ids = new Map<unknown, number>();
  const ports = new Map<unknown, number>();
  bridges.forEach((b, i) => {
    const br = obj(b);
    if (!br) return;
    if (typeof br.id === 'string') {
      const j = ids.get(br.id);
      if (j !== undefined) errors.push({ path: `hardware.bridges[${i}].id`, message: `repeats the id "${br.id}" of hardware.bridges[${j}]: give each bridge its own id` });
      else ids.set(br.id, i);
    }
    if (typeof br.port === 'string') {
      const j = ports.get(br.port);
      if (j !== undefined) errors.push({ path: `hardware.bridges[${i}].port`, message: `is also the port of hardware.bridges[${j}]: each bridge has its own serial device` });
      else ports.set(br.port, i);
      warnUnstablePort(br.port, `hardware.bridges[${i}].port`, warnings);
    }
    const readers = Array.isArray(br.readers) ? br.readers : [];
    const seen = new Map<unknown, number>();
    readers.forEach((r, k) => {
      const rd = obj(r);
      if (!rd || !Number.isInteger(rd.reader)) return;
      const j = seen.get(rd.reader);
      if (j !== undefined) errors.push({ path: `hardware.bridges[${i}].readers[${k}].reader`, message: `repeats reader ${rd.reader} of readers[${j}]: each reader index appears once per bridge` });
      else seen.set(rd.reader, k);
    });
  });
  return errors;
}

// The social games whose score the table keeps, for the messages (the variants rulesFor knows).
const SOCIAL = 'whist, english-whist, prussian-whist, favourite-whist, english-dummy, double-dummy, mort, humbug or thirteen-and-the-odd';

/**
 * The `score` settings that the config's variant has no use for: each one refused with the variant that takes it, so
 * a table never shows a score other than the one its club agreed (a setting silently ignored would do just that).
 */
function scoreChecks(variant: unknown, score: Record<string, unknown> | undefined): ConfigError[] {
  // An unknown variant has its own error; the score is checked against a known one only.
  if (!score || typeof variant !== 'string' || !variantNames().includes(variant)) return [];
  const errors: ConfigError[] = [];
  const set = (k: string) => score[k] !== undefined;
  const rules = rulesFor(variant, {});
  if (rules === null) {
    // Duplicate whist and bridge: the club scores them from the travellers; the table keeps no score.
    for (const k of Object.keys(score)) {
      errors.push({ path: `score.${k}`, message: `is a setting of the social games' score (variant ${SOCIAL}); variant ${variant} is scored by the club from its travellers, with no score at the table: remove score.${k}, or set the variant the table plays` });
    }
    return errors;
  }
  const only = (k: string, wanted: string, what: string) => {
    if (set(k) && variant !== wanted) errors.push({ path: `score.${k}`, message: `is ${what}, set only with variant ${wanted} (the variant is ${variant}): remove score.${k}, or set variant: ${wanted}` });
  };
  only('progressive', 'favourite-whist', 'the progressive variation of Favourite whist');
  only('continuousDummy', 'english-dummy', 'the English Dummy concession (one player takes dummy throughout)');
  only('players', 'mort', 'the number of players at a Mort table');
  // Seed 001, Favourite whist: "A variation is to attach a progressive value ... the game is 10 points".
  if (variant === 'favourite-whist' && score.progressive === true && set('gamePoints') && score.gamePoints !== 10) {
    errors.push({ path: 'score.gamePoints', message: `is ${String(score.gamePoints)}, but in the progressive variation "the game is 10 points" (seed 001, Favourite whist): remove score.gamePoints or set it to 10` });
  }
  if (set('honoursWithoutCall')) {
    const r = rulesFor(variant, { progressive: score.progressive === true });
    if (r && (r.honours === 'none' || !r.honoursMustBeCalled)) {
      errors.push({ path: 'score.honoursWithoutCall', message: `has nothing to do in ${variant}${score.progressive === true ? ' (progressive)' : ''}, where honours are not called (they count, and are called, in english-whist, prussian-whist, favourite-whist, english-dummy, double-dummy and humbug): remove score.honoursWithoutCall` });
    }
  }
  return errors;
}

function warnUnstablePort(port: unknown, path: string, warnings: ConfigError[]): void {
  if (typeof port === 'string' && /^\/dev\/tty(USB|ACM)\d+$/.test(port)) {
    warnings.push({ path, message: `${port} can change after a re-plug or reboot: prefer its /dev/serial/by-id/... name (ls -l /dev/serial/by-id/)` });
  }
}

function resolvePaths(data: Record<string, unknown>, baseDir: string): void {
  for (const [section, key] of PATH_FIELDS) {
    const s = data[section] as Record<string, unknown> | undefined;
    if (!s) continue;
    const v = s[key];
    if (typeof v === 'string') s[key] = isAbsolute(v) ? v : resolve(baseDir, v);
    else if (Array.isArray(v)) s[key] = v.map((p) => (typeof p === 'string' && !isAbsolute(p) ? resolve(baseDir, p) : p));
  }
}
