// The generated validator modules' text (ajv standalone ESM code), shared by the table daemon's config
// (src/config/validator-source.ts) and the director's (src/club/director/config-validator-source.ts).

/**
 * A module of ajv's standalone ESM code for `schema`, compiled with `options` and the `fix` keyword, headed by
 * `header` (comment lines) and exporting the schema's `hash`: loadable from TypeScript and plain Node.
 */
export async function standaloneModule(o: { options: object; schema: object; hash: string; header: string[] }): Promise<string> {
  const { Ajv } = await import('ajv');
  const standalone = (await import('ajv/dist/standalone/index.js')).default as unknown as { default: (ajv: unknown, v: unknown) => string };
  const ajv = new Ajv({ ...o.options, code: { source: true, esm: true } });
  ajv.addKeyword({ keyword: 'fix', schemaType: 'string' });
  const code = standalone.default(ajv, ajv.compile(o.schema)).replace(/^"use strict";/, '');
  return [
    '// @ts-nocheck',
    ...o.header,
    // ajv's runtime helpers are CommonJS modules that the standalone code require()s.
    "import { createRequire } from 'node:module';",
    'const require = createRequire(import.meta.url);',
    `export const SCHEMA_HASH = ${JSON.stringify(o.hash)};`,
    code,
    '',
  ].join('\n');
}
