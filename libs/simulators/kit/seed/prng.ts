// Bound once: hot loops run under Jest's vm contexts too, where every global lookup
// (`Math`) goes through an interceptor and costs ~20x.
const { floor, imul, min } = Math;

/**
 * mulberry32: a tiny, fast 32-bit PRNG; the same seed gives the same sequence on every
 * platform, which is what makes a generated org reproducible. Returns numbers in [0, 1).
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Helpers over a PRNG for generators. */
export class Prng {
  constructor(readonly next: () => number) {}

  static seeded(seed: number): Prng {
    return new Prng(mulberry32(seed));
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[floor(this.next() * items.length)];
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** `count` distinct items (or all of them when fewer), in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = items.slice();
    const n = min(count, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, n);
  }
}
