// Reading a rejected config's errors in tests: the config tests and the score-config tests ask the same questions.
import { expect } from 'vitest';
import type { ConfigError, ConfigResult } from '../../src/config/load.js';

/** The errors of a config that must have been rejected (the test fails if it was accepted). */
export function errorsOf(r: ConfigResult): ConfigError[] {
  expect(r.ok, 'expected the config to be rejected').toBe(false);
  return r.ok ? [] : r.errors;
}

/** The error at one path (the test fails, listing the errors, if there is none). */
export function errorAt(r: ConfigResult, path: string): ConfigError {
  const errs = errorsOf(r);
  const e = errs.find((x) => x.path === path);
  expect(e, `no error at ${path}; got ${JSON.stringify(errs)}`).toBeDefined();
  return e!;
}
