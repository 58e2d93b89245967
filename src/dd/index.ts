// Double-dummy analysis (issue 21): DDS in a child process behind one small interface.
export * from './types.js';
export { DoubleDummy, DdError, type DoubleDummyOptions } from './solver.js';
export { probeDds } from './probe.js';
