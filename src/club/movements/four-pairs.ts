// Placeholder until the movement is written (issue 7).
import type { Movement } from '../types.js';
import { unwritten } from './unwritten.js';

/** The four-pairs movement. */
export const movement: Movement = unwritten('four-pairs');
