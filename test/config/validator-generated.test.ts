// The config validator compiled ahead of time (src/config/validator-source.ts) must be the one ajv compiles from the
// schema today: same code, same verdicts, same errors.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCHEMA_HASH, validate } from '../../src/config/config-validator.generated.js';
import { parseConfig } from '../../src/config/load.js';
import { GENERATED_VALIDATOR, configSchemaHash, validatorModuleSource } from '../../src/config/validator-source.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('the precompiled config validator', () => {
  it(`${GENERATED_VALIDATOR} is in sync with src/config/schema.ts`, async () => {
    const fix = 'regenerate it: npx tsx src/config/validator-source.ts --write';
    expect(SCHEMA_HASH, fix).toBe(configSchemaHash());
    expect(readFileSync(join(root, GENERATED_VALIDATOR), 'utf8'), fix).toBe(await validatorModuleSource());
  });

  it('fills defaults and refuses a bad value with the schema sentence', () => {
    const ok = { club: { id: 'ely' }, table: { id: '3' } } as Record<string, any>;
    expect(validate(ok)).toBe(true);
    expect(ok.journal.fsync).toBe('always');
    const bad = { club: { id: 'ely' }, table: { id: '3' }, journal: { fsync: 'sometimes' } };
    expect(validate(bad)).toBe(false);
    expect((validate as unknown as { errors: { instancePath: string; keyword: string }[] }).errors[0]).toMatchObject({ instancePath: '/journal/fsync', keyword: 'enum' });
    const r = parseConfig('club: { id: ely }\ntable: { id: 3 }\njournal: { fsync: sometimes }\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]).toMatchObject({ path: 'journal.fsync', line: 3 });
  });
});
