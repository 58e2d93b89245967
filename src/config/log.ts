// The logging interface modules depend on, kept apart from the logger so that a module (or a test child process) that
// only needs to log does not load it.

/** The logging the journal and other modules need; the daemons' Logger (config/logger.ts) satisfies it, tests pass a recorder. */
export interface Log {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A Log that discards everything (the default for library use and tests). */
export const silentLog: Log = { debug() {}, info() {}, warn() {}, error() {} };
