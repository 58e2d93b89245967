// The daemon config's `score:` block (issue 9): the club's agreed game — its length, Favourite whist's progressive
// variation, the English Dummy concession, the players at Mort, honours without a call — set at the table. Each
// mistake names the field and the fix, and `tenace check-config` (and so `tenace run`) refuses it with exit 78.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EX_CONFIG, checkConfigCommand } from '../../src/cli/check-config.js';
import { envOverrides } from '../../src/config/env.js';
import { type ConfigError, type ConfigResult, parseConfig } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';
import { errorAt, errorsOf } from './config-errors.js';

const MINIMAL = 'club: { id: ely }\ntable: { id: "7" }\n';
const tmp = mkdtempSync(join(tmpdir(), 'tenace-score-config-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function parse(yaml: string, env: Record<string, string> = {}): ConfigResult {
  return parseConfig(MINIMAL + yaml, { env });
}

describe('score: the settings each social game takes', () => {
  it('absent: no score key, the seed\'s rules (a config reads back as it was written)', () => {
    const r = parse('variant: english-whist\n');
    expect(r.ok && 'score' in r.config).toBe(false);
  });

  it('"5, 7 or 10 point whist" (seed 001): a 10-point American game, a 7-point Prussian one', () => {
    const r = parse('variant: whist\nscore: { gamePoints: 10 }\n');
    expect(r.ok ? [] : r.errors).toEqual([]);
    expect(r.ok && r.config.score).toEqual({ gamePoints: 10 });
    expect(parse('variant: prussian-whist\nscore:\n  gamePoints: 7\n').ok).toBe(true);
  });

  it('each variation with its own game', () => {
    const ok = (y: string) => expect(parse(y).ok ? [] : (parse(y) as { errors: ConfigError[] }).errors).toEqual([]);
    ok('variant: favourite-whist\nscore: { progressive: true }\n');
    ok('variant: favourite-whist\nscore: { progressive: true, gamePoints: 10 }\n');
    ok('variant: english-dummy\nscore: { continuousDummy: true }\n');
    ok('variant: mort\nscore: { players: 4 }\n');
    ok('variant: english-whist\nscore: { honoursWithoutCall: true, gamePoints: 10 }\n');
    ok('variant: humbug\nscore: { honoursWithoutCall: true }\n');
  });

  it('config/tenace.example.yaml documents every score setting, and its commented block loads once uncommented', () => {
    const text = readFileSync(resolve(import.meta.dirname, '../../config/tenace.example.yaml'), 'utf8');
    const block = text.slice(text.indexOf('# score:'));
    for (const k of Object.keys(configSchema.properties.score.properties)) expect(block, k).toMatch(new RegExp(`^#   ${k}: `, 'm'));
    // Each line as a person would uncomment it, with a variant that takes it.
    const line = (k: string) => block.match(new RegExp(`^#   (${k}: [^ ]+)`, 'm'))![1];
    const take: Record<string, string> = { gamePoints: 'whist', progressive: 'favourite-whist', continuousDummy: 'english-dummy', players: 'mort', honoursWithoutCall: 'english-whist' };
    for (const [k, variant] of Object.entries(take)) {
      const r = parse(`variant: ${variant}\nscore:\n  ${line(k)}\n`);
      expect(r.ok ? [] : r.errors, k).toEqual([]);
    }
  });

  it('an environment override for each setting, coerced to its type', () => {
    const names = envOverrides().map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['TENACE_SCORE_GAME_POINTS', 'TENACE_SCORE_PROGRESSIVE', 'TENACE_SCORE_CONTINUOUS_DUMMY', 'TENACE_SCORE_PLAYERS', 'TENACE_SCORE_HONOURS_WITHOUT_CALL']));
    const r = parse('variant: favourite-whist\n', { TENACE_SCORE_PROGRESSIVE: 'true' });
    expect(r.ok && r.config.score).toEqual({ progressive: true });
  });
});

describe('score: mistakes name the field and say the fix', () => {
  it('gamePoints other than 5, 7 or 10', () => {
    const e = errorAt(parse('variant: whist\nscore:\n  gamePoints: 6\n'), 'score.gamePoints');
    expect(e.message).toMatch(/^must be 5, 7 or 10, the points to game \("the ordinary 5, 7 or 10 point whist", seed 001\).*\(got 6\)$/);
    expect(e.line).toBe(5);
    // Not a whole number, and a quoted number (with the YAML hint), are the same sentence.
    expect(errorAt(parse('variant: whist\nscore: { gamePoints: 7.5 }\n'), 'score.gamePoints').message).toMatch(/^must be 5, 7 or 10.*\(got 7\.5\)$/);
    expect(errorAt(parse('variant: whist\nscore: { gamePoints: "10" }\n'), 'score.gamePoints').message).toMatch(/^must be 5, 7 or 10.*\(got "10"\); remove the quotes$/);
  });

  it('gamePoints with a game the club scores (duplicate whist, bridge): no score at the table', () => {
    const e = errorAt(parse('score: { gamePoints: 10 }\n'), 'score.gamePoints');
    expect(e.message).toMatch(/variant duplicate-whist is scored by the club from its travellers, with no score at the table: remove score\.gamePoints, or set the variant the table plays$/);
    expect(errorAt(parse('variant: bridge\nscore: { honoursWithoutCall: true }\n'), 'score.honoursWithoutCall').message).toMatch(/variant bridge is scored by the club/);
  });

  it('progressive only with favourite-whist, continuousDummy only with english-dummy, players only with mort', () => {
    const r = parse('variant: english-whist\nscore: { progressive: true, continuousDummy: true, players: 4 }\n');
    expect(errorAt(r, 'score.progressive').message).toBe('is the progressive variation of Favourite whist, set only with variant favourite-whist (the variant is english-whist): remove score.progressive, or set variant: favourite-whist');
    expect(errorAt(r, 'score.continuousDummy').message).toMatch(/set only with variant english-dummy \(the variant is english-whist\): remove score\.continuousDummy, or set variant: english-dummy$/);
    expect(errorAt(r, 'score.players').message).toMatch(/set only with variant mort \(the variant is english-whist\): remove score\.players, or set variant: mort$/);
    expect(errorsOf(r)).toHaveLength(3);
  });

  it('Favourite whist\'s variation: "the game is 10 points" (seed 001), so no other gamePoints with progressive', () => {
    const e = errorAt(parse('variant: favourite-whist\nscore: { progressive: true, gamePoints: 5 }\n'), 'score.gamePoints');
    expect(e.message).toBe('is 5, but in the progressive variation "the game is 10 points" (seed 001, Favourite whist): remove score.gamePoints or set it to 10');
  });

  it('honoursWithoutCall where honours do not count: American whist, and "Honours do not count" in the progressive variation', () => {
    expect(errorAt(parse('variant: whist\nscore: { honoursWithoutCall: true }\n'), 'score.honoursWithoutCall').message).toMatch(/^has nothing to do in whist, where honours are not called/);
    expect(errorAt(parse('variant: favourite-whist\nscore: { progressive: true, honoursWithoutCall: true }\n'), 'score.honoursWithoutCall').message).toMatch(/^has nothing to do in favourite-whist \(progressive\)/);
  });

  it('players other than 3 or 4, a boolean that is not one, an unknown setting', () => {
    expect(errorAt(parse('variant: mort\nscore: { players: 5 }\n'), 'score.players').message).toMatch(/^must be 3 or 4, the players at the Mort table.*\(got 5\)$/);
    expect(errorAt(parse('variant: favourite-whist\nscore: { progressive: yes }\n'), 'score.progressive').message).toMatch(/^must be true or false: true scores Favourite whist by its progressive variation.*YAML 1\.2 reads yes\/no\/on\/off as text/);
    expect(errorAt(parse('variant: whist\nscore: { gamepoints: 10 }\n'), 'score.gamepoints').message).toBe('is not a known setting: did you mean "gamePoints"?');
  });

  it('an override from the environment is named with its variable', () => {
    const e = errorAt(parse('variant: whist\n', { TENACE_SCORE_GAME_POINTS: '11' }), 'score.gamePoints');
    expect(e.message).toMatch(/\(got 11\) \(set by TENACE_SCORE_GAME_POINTS\)$/);
  });

  it('tenace check-config exits 78 (EX_CONFIG), naming file, line, field and fix', () => {
    const file = join(tmp, 'bad-score.yaml');
    writeFileSync(file, `${MINIMAL}variant: english-whist\nscore:\n  progressive: true\n`);
    let out = '';
    let err = '';
    const code = checkConfigCommand([file, '--skip-files'], { out: (s) => { out += s; }, err: (s) => { err += s; } }, {});
    expect(code).toBe(EX_CONFIG);
    expect(out).toBe('');
    expect(err).toContain(`${file}:5: score.progressive: is the progressive variation of Favourite whist, set only with variant favourite-whist`);
  });
});
