/**
 * A binary's commands by name → a loader. A `Map`, so `ward constructor` finds nothing; loaders, so
 * `ward status` does not import what only `ward server` needs. The longest name made of the first
 * words of the command line wins (`operator raft snapshot save` over `operator raft`).
 */
export class CommandTable<C> {
  readonly #loaders: ReadonlyMap<string, () => C | Promise<C>>;
  readonly #maxWords: number;

  constructor(entries: Iterable<readonly [string, () => C | Promise<C>]>) {
    this.#loaders = new Map(entries);
    this.#maxWords = Math.max(1, ...[...this.#loaders.keys()].map((n) => n.split(' ').length));
  }

  /** The command the leading words of `argv` name: its loader and how many words its name has. */
  find(argv: readonly string[]): { load: () => Promise<C>; words: number } | undefined {
    for (let n = Math.min(this.#maxWords, argv.length); n >= 1; n--) {
      const load = this.#loaders.get(argv.slice(0, n).join(' '));
      if (load) return { load: async () => load(), words: n };
    }
    return undefined;
  }

  /** Every name, in table order (usage texts, shell completion). */
  names(): string[] {
    return [...this.#loaders.keys()];
  }

  /** The names of a group (`kv` → `kv get`, `kv put`, …). */
  under(group: string): string[] {
    return this.names().filter((n) => n.startsWith(`${group} `));
  }

  /** The names under the longest group the leading words make (`acl token x` → `acl token …`); empty when none. */
  underLongestGroup(words: readonly string[]): string[] {
    for (let n = Math.min(this.#maxWords - 1, words.length); n >= 1; n--) {
      const names = this.under(words.slice(0, n).join(' '));
      if (names.length > 0) return names;
    }
    return [];
  }
}
