// Placeholder until the movement is written (issue 7).
import type { Movement } from '../types.js';
import { unwritten } from './unwritten.js';

/** The memory-duplicate movement. */
export const movement: Movement = unwritten('memory-duplicate');
