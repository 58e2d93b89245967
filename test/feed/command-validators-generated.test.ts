// The command validators compiled ahead of time (src/feed/command-validators-source.ts) must be the ones ajv compiles
// from the schemas in src/feed/commands.ts today.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCHEMA_HASH } from '../../src/feed/command-validators.generated.js';
import { GENERATED_COMMAND_VALIDATORS, commandValidatorsSource } from '../../src/feed/command-validators-source.js';
import { checkCommand, checkEventsQuery, commandSchemasHash } from '../../src/feed/commands.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('the precompiled command validators', () => {
  it(`${GENERATED_COMMAND_VALIDATORS} is in sync with the schemas in src/feed/commands.ts`, async () => {
    const fix = 'regenerate it: npx tsx src/feed/command-validators-source.ts --write';
    expect(SCHEMA_HASH, fix).toBe(commandSchemasHash());
    expect(readFileSync(join(root, GENERATED_COMMAND_VALIDATORS), 'utf8'), fix).toBe(await commandValidatorsSource());
  });

  it('refuse with the field and the fix, as the compiled ones did', () => {
    const bad = checkCommand('claim', JSON.stringify({ transaction: 't1', seat: 'N', tricks: 14 }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/^tricks: /);
    expect(checkCommand('claim', JSON.stringify({ transaction: 't1', seat: 'N', tricks: 3 })).ok).toBe(true);
    const q = checkEventsQuery(JSON.stringify({ transaction: 't2', after: -1 }));
    expect(q.ok).toBe(false);
    if (!q.ok) expect(q.error).toMatch(/^after: /);
  });
});
