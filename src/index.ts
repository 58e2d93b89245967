// The `tenace` package's public API (`import { Table, replay, parsePbn } from 'tenace'`): the pure rules engine, the
// table log (DESIGN §4) and the hand-record formats. The daemon, the drivers and the feed are reached through the CLI.
export { Table, replay, type TableOptions, type TrickView } from './laws/engine.js';
export type * from './laws/types.js';
export { VARIANTS, getVariant, variantNames } from './laws/variants.js';
export { SEATS, type Seat, type Side } from './cards/seat.js';
export * from './formats/table-log.js';
export * from './formats/index.js';
