// The config's JSON Schema, published for editors (issue 11 item 17): config/tenace.schema.json is what
// `tenace check-config --schema` prints, the example config points editors at it, and a plain JSON Schema validator
// reading it accepts the example and flags the mistakes the loader flags.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { checkConfigCommand } from '../../src/cli/check-config.js';
import { SCHEMA_FILE, publishedSchema, publishedSchemaText } from '../../src/config/json-schema.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const EXAMPLE = join(root, 'config/tenace.example.yaml');
const MODELINE = '# yaml-language-server: $schema=./tenace.schema.json';

function capture() {
  let out = '';
  let err = '';
  return { io: { out: (s: string) => { out += s; }, err: (s: string) => { err += s; } }, get out() { return out; }, get err() { return err; } };
}

// What an editor does: a standard draft-07 validator, with no knowledge of the loader's `fix` keyword.
function editorValidator() {
  return new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(JSON.parse(readFileSync(join(root, SCHEMA_FILE), 'utf8')));
}

describe('the published config schema', () => {
  it(`${SCHEMA_FILE} is in sync with src/config/schema.ts`, () => {
    const file = readFileSync(join(root, SCHEMA_FILE), 'utf8');
    expect(file, `regenerate it: npx tenace check-config --schema > ${SCHEMA_FILE}`).toBe(publishedSchemaText());
  });

  it('tenace check-config --schema prints it and exits 0', () => {
    const c = capture();
    expect(checkConfigCommand(['--schema'], c.io, {})).toBe(0);
    expect(c.out).toBe(readFileSync(join(root, SCHEMA_FILE), 'utf8'));
    expect(c.err).toBe('');
  });

  it('is plain draft-07: the loader\'s fix sentences became descriptions', () => {
    const text = publishedSchemaText();
    expect(text).not.toContain('"fix"');
    const s = publishedSchema() as { $schema: string; properties: { journal: { properties: { groupCommitMs: { description: string } } } } };
    expect(s.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(s.properties.journal.properties.groupCommitMs.description).toBe('a whole number of milliseconds from 0 to 1000');
  });

  it('the example config names it on its first line, by a path that exists', () => {
    const first = readFileSync(EXAMPLE, 'utf8').split('\n')[0];
    expect(first).toBe(MODELINE);
    expect(existsSync(join(dirname(EXAMPLE), first.split('$schema=')[1]))).toBe(true);
  });

  it('an editor accepts the example, and flags what the loader flags', () => {
    const validate = editorValidator();
    const example = parse(readFileSync(EXAMPLE, 'utf8')) as Record<string, unknown>;
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    // `table: { id: 7 }` is table "7" to the loader, so the editor must not flag it.
    expect(validate(parse('club: { id: ely }\ntable: { id: 7 }\n'))).toBe(true);
    expect(validate(parse('club: { id: ely }\ntable: { id: "7" }\nhardware: { bridges: [ { id: b, port: /dev/x, readers: [ { reader: 0, seat: X } ] } ] }\n'))).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toContain('/hardware/bridges/0/readers/0/seat');
    expect(validate(parse('club: { id: ely }\ntable: { id: "7" }\nmqtt: { prot: 1883 }\n'))).toBe(false);
    expect(validate(parse('club: { id: ely }\n'))).toBe(false);
  });
});
