// The codes of laws by name.
import type { LawCode } from '../code.js';
import { american } from './american.js';
import { bridge } from './bridge.js';
import { doubleDummy, englishDummy, mort } from './dummy.js';
import { duplicateWhist } from './duplicate-whist.js';
import { english } from './english.js';
import { humbug, thirteenAndTheOdd } from './humbug.js';

export const CODES: Readonly<Record<string, LawCode>> = {
  'duplicate-whist': duplicateWhist,
  american,
  english,
  'english-dummy': englishDummy,
  'double-dummy': doubleDummy,
  mort,
  humbug,
  'thirteen-and-the-odd': thirteenAndTheOdd,
  bridge,
};
