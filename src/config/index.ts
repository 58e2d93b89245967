// The daemon's settings: schema, loader, environment overrides and logger.
export { configSchema, type TenaceConfig, type BridgeConfig, type ReaderConfig, type ScannerConfig, type LogLevel } from './schema.js';
export { loadConfig, parseConfig, formatConfigErrors, checkConfigFiles, checkConfigDevices, formatPath, type ConfigError, type ConfigResult } from './load.js';
export { envOverrides, ENV_PREFIX, type EnvOverride } from './env.js';
export { createLogger, silentLog, type Log, type Logger } from './logger.js';
