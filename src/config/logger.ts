// Structured logging: one JSON object a line on stdout, which journald captures under the unit's name.
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './schema.js';

export type { Logger };
export { type Log, silentLog } from './log.js';

/** What the logger needs from the config; a whole TenaceConfig fits. */
export type LoggerSettings = { log?: { level?: LogLevel }; club?: { id: string }; table?: { id: string } };

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
    },
    // Synchronous writes: the last lines before a crash (or a SIGKILL from the watchdog) reach journald.
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
