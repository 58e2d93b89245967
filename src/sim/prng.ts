// A small seeded PRNG for the simulators and benchmarks: xoshiro128** seeded through splitmix32.
// Everything the simulator produces must be reproducible from a seed (tests, bug reports, benchmark corpora), so
// nothing in src/sim may use Math.random. 32-bit arithmetic via Math.imul and >>> 0 keeps it exact in JS numbers.

/** The generator interface the simulators take, so a test can substitute a scripted source. */
export interface Rng {
  /** A uniform unsigned 32-bit integer. */
  nextU32(): number;
  /** A uniform integer in [0, n), n between 1 and 2^32. */
  int(n: number): number;
  /** Shuffle an array in place (Fisher-Yates) and return it. */
  shuffle<T>(items: T[]): T[];
}

const TWO_32 = 0x1_0000_0000;

/** One step of splitmix32: returns the next state and a well-mixed output, used only to expand a seed. */
function splitmix32(state: number): [number, number] {
  const next = (state + 0x9e3779b9) | 0;
  let z = next;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return [next, (z ^ (z >>> 16)) >>> 0];
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** xoshiro128**: 128 bits of state, fast, good enough statistically for dealing cards (not for cryptography). */
export class Xoshiro128 implements Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  /** Seed from any finite number; seeds differing only above 2^32 still give different streams. */
  constructor(seed: number) {
    if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number (got ${seed})`);
    // Fold the high part in so that e.g. Date.now()-style seeds do not collide modulo 2^32.
    const lo = seed >>> 0;
    const hi = Math.floor(Math.abs(seed) / TWO_32) >>> 0;
    let st = (lo ^ Math.imul(hi, 0x27d4eb2d)) | 0;
    let out: number;
    [st, out] = splitmix32(st); this.s0 = out;
    [st, out] = splitmix32(st); this.s1 = out;
    [st, out] = splitmix32(st); this.s2 = out;
    [st, out] = splitmix32(st); this.s3 = out;
    // An all-zero state would be a fixed point; splitmix32 cannot produce four zeros, but guard anyway.
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** A generator with the raw 128-bit state given, for reference test vectors; not all zero. */
  static fromState(s0: number, s1: number, s2: number, s3: number): Xoshiro128 {
    if (((s0 | s1 | s2 | s3) >>> 0) === 0) throw new RangeError('xoshiro128** state must not be all zero');
    const g = new Xoshiro128(0);
    g.s0 = s0 | 0; g.s1 = s1 | 0; g.s2 = s2 | 0; g.s3 = s3 | 0;
    return g;
  }

  /** A uniform unsigned 32-bit integer. */
  nextU32(): number {
    const s1 = this.s1;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** A uniform integer in [0, n), unbiased (rejection of the top partial range). */
  int(n: number): number {
    if (!(Number.isInteger(n) && n >= 1 && n <= TWO_32)) throw new RangeError(`int(n) needs an integer 1..2^32 (got ${n})`);
    // Values at or above `limit` would favour the small residues; redraw them (rarely needed for small n).
    const limit = TWO_32 - (TWO_32 % n);
    let x = this.nextU32();
    while (x >= limit) x = this.nextU32();
    return x % n;
  }

  /** Shuffle an array in place (Fisher-Yates) and return it. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = items[i];
      items[i] = items[j];
      items[j] = tmp;
    }
    return items;
  }
}

/** A seeded generator: the same seed gives the same stream on every run and platform. */
export function createRng(seed: number): Rng {
  return new Xoshiro128(seed);
}
