import type { Random } from '@ward/base';

/** A uniform integer in [0, n) drawn from `random` (n ≤ 2³²; slight bias is harmless for peer picking). */
export function randomIndex(random: Random, n: number): number {
  const b = random.bytes(4);
  const v = ((b[0] ?? 0) << 24) | ((b[1] ?? 0) << 16) | ((b[2] ?? 0) << 8) | (b[3] ?? 0);
  return (v >>> 0) % n;
}

/** Up to `k` distinct items of `items`, in random order. */
export function pickRandom<T>(random: Random, items: readonly T[], k: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < k && pool.length > 0) {
    const [item] = pool.splice(randomIndex(random, pool.length), 1);
    if (item !== undefined) out.push(item);
  }
  return out;
}
