// A seeded random generator (mulberry32): the same numbers for the same seed. The home page draws
// its reviews with it from the content version (reviews-pick.ts), the demo draws its photos, and
// tests of random rules repeat their failures.

/** Floats in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
