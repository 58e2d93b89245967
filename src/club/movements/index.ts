// The movements `tenace movement NAME` knows, by name (docs/club.md).
import type { Movement } from '../types.js';
import { movement as compass } from './compass.js';
import { movement as gilman } from './gilman.js';
import { movement as howellTeams } from './howell-teams.js';
import { movement as fourPairs } from './four-pairs.js';
import { movement as sixPairs } from './six-pairs.js';
import { movement as memoryDuplicate } from './memory-duplicate.js';
import { movement as saffordIndividuals } from './safford-individuals.js';
import { movement as mitchellIndividuals } from './mitchell-individuals.js';
import { movement as saffordCouples } from './safford-couples.js';
import { movement as mitchell } from './mitchell.js';
import { movement as howell } from './howell.js';

/** Every movement, by its CLI name. */
export const MOVEMENTS: Readonly<Record<string, Movement>> = {
  'compass': compass,
  'gilman': gilman,
  'howell-teams': howellTeams,
  'four-pairs': fourPairs,
  'six-pairs': sixPairs,
  'memory-duplicate': memoryDuplicate,
  'safford-individuals': saffordIndividuals,
  'mitchell-individuals': mitchellIndividuals,
  'safford-couples': saffordCouples,
  'mitchell': mitchell,
  'howell': howell,
};

/** The movement of that name, or undefined. */
export function movementByName(name: string): Movement | undefined {
  return Object.hasOwn(MOVEMENTS, name) ? MOVEMENTS[name] : undefined;
}
