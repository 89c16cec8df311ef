// Deterministic pseudo-random helpers: every seeded demo data set and fault run repeats exactly.
/** The generator (mulberry32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Rng {
  next(): number;
  int(maxExclusive: number): number;
  pick<T>(items: readonly T[]): T;
  hex(bytes: number): string;
  chance(p: number): boolean;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function createRng(seed: number): Rng {
  const next = mulberry32(seed);
  const int = (max: number): number => Math.floor(next() * max);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)],
    hex(bytes) {
      let out = '';
      for (let i = 0; i < bytes; i++) out += HEX[int(256)];
      return out;
    },
    chance: (p) => next() < p,
  };
}

/** A version-4 UUID drawn from the generator. */
export function uuid4(rng: Rng): string {
  const h = rng.hex(16).split('');
  h[12] = '4';
  h[16] = '89ab'[rng.int(4)]!;
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
