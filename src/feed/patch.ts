// A small subset of JSON Patch (RFC 6902: add, replace, remove with JSON Pointer paths) between two public
// snapshots. Each `event` message carries the patch from the previous snapshot to the next, so a subscriber keeps the
// complete table state from the retained state plus events alone, and any JSON Patch library can apply it too.
// Pure and free of Node APIs: the browser view uses it.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type PatchOp =
  | { op: 'add'; path: string; value: JsonValue }
  | { op: 'replace'; path: string; value: JsonValue }
  | { op: 'remove'; path: string };

function isObject(v: unknown): v is Record<string, JsonValue> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function escapeToken(k: string): string {
  // Nearly every key has neither character: no regex, no new string (the diff runs on every card, issue 20).
  if (k.indexOf('~') < 0 && k.indexOf('/') < 0) return k;
  return k.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapeToken(t: string): string {
  return t.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Structural equality of two JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!Object.prototype.hasOwnProperty.call(b, k) || !jsonEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/**
 * The operations that turn `prev` into `next`. Objects are diffed key by key; an array that only grew is extended
 * with `add .../-` (the list of tricks grows by one per trick); any other changed value is replaced whole.
 */
export function diffJson(prev: JsonValue, next: JsonValue, path = ''): PatchOp[] {
  const ops: PatchOp[] = [];
  diffInto(prev, next, path, ops);
  return ops;
}

function diffInto(prev: JsonValue, next: JsonValue, path: string, ops: PatchOp[]): void {
  if (isObject(prev) && isObject(next)) {
    for (const k of Object.keys(prev)) {
      if (!Object.prototype.hasOwnProperty.call(next, k)) ops.push({ op: 'remove', path: `${path}/${escapeToken(k)}` });
    }
    for (const k of Object.keys(next)) {
      if (!Object.prototype.hasOwnProperty.call(prev, k)) ops.push({ op: 'add', path: `${path}/${escapeToken(k)}`, value: next[k] });
      // The same value gives no operation: skip it before its path is spelt out (most of a state is unchanged).
      else if (prev[k] !== next[k]) diffInto(prev[k], next[k], `${path}/${escapeToken(k)}`, ops);
    }
    return;
  }
  if (Array.isArray(prev) && Array.isArray(next) && next.length > prev.length && prev.every((v, i) => jsonEqual(v, next[i]))) {
    for (let i = prev.length; i < next.length; i++) ops.push({ op: 'add', path: `${path}/-`, value: next[i] });
    return;
  }
  if (!jsonEqual(prev, next)) {
    if (path === '') throw new Error('diffJson: the documents must be objects');
    ops.push({ op: 'replace', path, value: next });
  }
}

// Keys that would reach Object.prototype if a hostile patch named them (the browser mirror applies what it receives).
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Apply operations to a deep copy of `doc` and return it; throws (leaving `doc` untouched) when an operation does
 * not fit the document, so a subscriber can fall back to the next retained snapshot.
 */
export function applyPatch<T extends JsonValue>(doc: T, ops: readonly PatchOp[]): T {
  const out = structuredClone(doc) as JsonValue;
  for (const op of ops) {
    if (typeof op !== 'object' || op === null || typeof op.path !== 'string' || !op.path.startsWith('/')) {
      throw new Error(`patch: bad operation ${JSON.stringify(op)}`);
    }
    const tokens = op.path.slice(1).split('/').map(unescapeToken);
    if (tokens.some((t) => FORBIDDEN.has(t))) throw new Error(`patch: forbidden path ${op.path}`);
    const last = tokens.pop()!;
    let parent: JsonValue = out;
    for (const t of tokens) {
      const child: JsonValue | undefined = Array.isArray(parent) ? parent[arrayIndex(parent, t, false)] : isObject(parent) ? parent[t] : undefined;
      if (child === undefined || child === null || typeof child !== 'object') throw new Error(`patch: no container at ${op.path}`);
      parent = child;
    }
    if (Array.isArray(parent)) {
      if (op.op === 'add') {
        const i = last === '-' ? parent.length : arrayIndex(parent, last, true);
        parent.splice(i, 0, op.value);
      } else if (op.op === 'replace') parent[arrayIndex(parent, last, false)] = op.value;
      else if (op.op === 'remove') parent.splice(arrayIndex(parent, last, false), 1);
      else throw new Error(`patch: unsupported op ${JSON.stringify((op as { op: unknown }).op)}`);
    } else if (isObject(parent)) {
      if (op.op === 'add') parent[last] = op.value;
      else if (op.op === 'replace' || op.op === 'remove') {
        if (!Object.prototype.hasOwnProperty.call(parent, last)) throw new Error(`patch: nothing at ${op.path}`);
        if (op.op === 'replace') parent[last] = op.value;
        else delete parent[last];
      } else throw new Error(`patch: unsupported op ${JSON.stringify((op as { op: unknown }).op)}`);
    } else {
      throw new Error(`patch: no container at ${op.path}`);
    }
  }
  return out as T;
}

function arrayIndex(arr: JsonValue[], token: string, forAdd: boolean): number {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`patch: "${token}" is not an array index`);
  const i = Number(token);
  if (i > arr.length || (!forAdd && i === arr.length)) throw new Error(`patch: index ${i} is out of range`);
  return i;
}
