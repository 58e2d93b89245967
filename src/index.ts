// The `tenace` package's public API (`import { Table, replay, parsePbn } from 'tenace'`): the pure rules engine, the
// table log (DESIGN §4), the hand-record formats, and the club's pure parts (movements, scoring, the tray doctor).
// The daemon, the drivers, the feed and the director are reached through the CLI.
export { Table, replay, type TableOptions, type TrickView } from './laws/engine.js';
export type * from './laws/types.js';
export { VARIANTS, getVariant, variantNames } from './laws/variants.js';
export { SEATS, type Seat, type Side } from './cards/seat.js';
export * from './formats/table-log.js';
export * from './formats/index.js';
export type * from './club/types.js';
export { MOVEMENTS, movementByName } from './club/movements/index.js';
export { checkSchedule } from './club/movements/invariants.js';
export { scoreTravellers, type ScoreOptions } from './club/scoring/index.js';
export { handDifferences, trayDoctor, fouledTrayOutcome, recordsFromPbn } from './club/trays/index.js';
