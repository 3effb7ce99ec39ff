import { type Random, randomBase62 } from '@ward/base';

/** A resource id in the established form: a type prefix and 16 base62 characters (`sub-kyjptCZYXQ6amEVu`). */
export function newId(random: Random, prefix: 'user' | 'org' | 'ou' | 'at' | 'sub'): string {
  return `${prefix}-${randomBase62(random, 16)}`;
}
