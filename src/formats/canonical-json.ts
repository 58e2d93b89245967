// One text for one value: the digests that tell a retried command from a reused transaction id (src/feed/commands.ts,
// src/club/director/decisions.ts) hash this, so both sides must write it the same way.

/** JSON with the keys of every object sorted (undefined fields dropped), so equal bodies give equal text whatever the sender's key order. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}
