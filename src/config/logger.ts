// Structured logging: one JSON object a line on stdout, which journald captures under the unit's name.
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './schema.js';

export type { Logger };
export { type Log, silentLog } from './log.js';

/** What the logger needs from the config; a whole TenaceConfig fits. */
export type LoggerSettings = { log?: { level?: LogLevel }; club?: { id: string }; table?: { id: string } };

/** An error made for the operator: its message names the setting and the fix, so its stack is noise. */
function isExpected(e: unknown): e is Error {
  return e instanceof Error && (e as { expected?: unknown }).expected === true;
}

/** Create the daemon's pino logger: JSON lines on stdout (or `destination`), level from config.log.level. */
export function createLogger(settings: LoggerSettings = {}, destination?: DestinationStream): Logger {
  return pino(
    {
      level: settings.log?.level ?? 'info',
      // Club and table on every line let one journald (or a central collector) tell tables apart.
      base: { pid: process.pid, club: settings.club?.id, table: settings.table?.id },
      // Level names rather than pino's numbers: `journalctl -u tenace | grep '"level":"warn"'` is what people type.
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
      // A config or an MQTT options object logged whole must not leak the broker password.
      redact: { paths: ['password', '*.password', '*.*.password'], censor: '[redacted]' },
      // An error that says what to fix (marked `expected`, e.g. a busy http.port) is logged as its sentence alone.
      serializers: { err: (e: unknown) => (isExpected(e) ? e.message : pino.stdSerializers.err(e as Error)) },
    },
    // Synchronous writes: the last lines before a crash (or a SIGKILL from the watchdog) reach journald.
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
