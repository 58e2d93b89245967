// The director config's validator compiled ahead of time (src/club/director/config-validator-source.ts) must be the one
// ajv compiles from the schema in src/club/director/config.ts today: same code, same verdicts, same errors.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { SCHEMA_HASH, validate } from '../../src/club/director/config-validator.generated.js';
import { GENERATED_DIRECTOR_VALIDATOR, directorValidatorModuleSource } from '../../src/club/director/config-validator-source.js';
import { DIRECTOR_AJV_OPTIONS, directorConfigSchema, directorConfigSchemaHash, parseDirectorConfig } from '../../src/club/director/config.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('the precompiled director config validator', () => {
  it(`${GENERATED_DIRECTOR_VALIDATOR} is in sync with the schema in src/club/director/config.ts`, async () => {
    const fix = 'regenerate it: npx tsx src/club/director/config-validator-source.ts --write';
    expect(SCHEMA_HASH, fix).toBe(directorConfigSchemaHash());
    expect(readFileSync(join(root, GENERATED_DIRECTOR_VALIDATOR), 'utf8'), fix).toBe(await directorValidatorModuleSource());
  });

  it('fills the same defaults and gives the same errors as the validator ajv compiles at run time', () => {
    const ajv = new Ajv({ ...DIRECTOR_AJV_OPTIONS });
    ajv.addKeyword({ keyword: 'fix', schemaType: 'string' });
    const compiled = ajv.compile(directorConfigSchema);
    const pre = validate as unknown as ValidateFunction;
    const inputs = [
      { club: { id: 'ely' }, session: 's1', movement: { name: 'mitchell', tables: 7 } },
      { club: { id: 'ely' }, session: 's1', movement: { name: 'mitchell', tables: 7, options: { even: 'relay' } }, cluster: {}, pairs: { '1NS': { players: [{ name: 'Ann Lee', member: '12345' }] } } },
      { club: { id: 'ely-x' }, session: '', movement: { tables: 0 }, mqtt: { url: 'http://x', protocolVersion: 3 }, store: { url: 'mysql://x' }, embargo: 'never', extra: 1 },
      { club: 'ely', session: 's1', movement: { name: 'mitchell', tables: 7, options: { even: [] } }, pairs: { '1NS': { players: [] } }, http: { port: 70000 } },
    ];
    for (const input of inputs) {
      const a = structuredClone(input) as Record<string, unknown>;
      const b = structuredClone(input) as Record<string, unknown>;
      expect(pre(a)).toBe(compiled(b));
      expect(a).toEqual(b);
      expect(pre.errors ?? null).toEqual(compiled.errors ?? null);
    }
  });

  it('leaves the loader refusing a bad value with the schema sentence', () => {
    const r = parseDirectorConfig('club: { id: ely }\nsession: s\nmovement: { name: mitchell, tables: 7 }\nhttp: { port: 70000 }\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]).toMatchObject({ path: 'http.port', message: expect.stringMatching(/^must be a TCP port from 1 to 65535/) });
  });
});
