// The config's JSON Schema as editors read it (config/tenace.schema.json, `tenace check-config --schema`): the
// loader's schema (./schema.ts) in plain draft-07, so a YAML editor completes the settings and flags mistakes.
import { configSchema } from './schema.js';

/** Where the published schema lives in the repository, and what the example config's modeline points at. */
export const SCHEMA_FILE = 'config/tenace.schema.json';

// Ids the loader also takes as whole numbers (`table: { id: 7 }` is table "7"): the editor must not flag them.
const NUMERIC_IDS: readonly string[] = ['club.id', 'table.id', 'session', 'hardware.bridges[].id'];

type Node = Record<string, unknown>;

/** The config schema for editors: `fix` sentences become descriptions, ids may be numbers, and it names its draft. */
export function publishedSchema(): Node {
  const out = convert(configSchema as unknown as Node, '');
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'tenace daemon configuration',
    description: 'The YAML config of `tenace run` (config/tenace.example.yaml explains each setting). Check a file with `tenace check-config FILE`.',
    ...out,
  };
}

/** The published schema as the file holds it. */
export function publishedSchemaText(): string {
  return `${JSON.stringify(publishedSchema(), null, 2)}\n`;
}

function convert(node: Node, path: string): Node {
  const out: Node = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'fix') continue;
    if (k === 'properties') {
      out.properties = Object.fromEntries(Object.entries(v as Record<string, Node>).map(([name, child]) => [name, convert(child, path ? `${path}.${name}` : name)]));
    } else if (k === 'items') {
      out.items = convert(v as Node, `${path}[]`);
    } else {
      out[k] = Array.isArray(v) ? [...v] : v;
    }
  }
  // "must be a whole number of milliseconds..." reads as "a whole number of milliseconds..." in an editor's hover.
  if (typeof node.fix === 'string' && out.description === undefined) out.description = node.fix.replace(/^must be /, '');
  if (NUMERIC_IDS.includes(path)) {
    out.type = ['string', 'integer'];
    out.minimum = 0;
  }
  return out;
}
