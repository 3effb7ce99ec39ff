/** Token digests remembered at most. */
const DIGEST_MEMO_LIMIT = 10_000;

/**
 * Token text → its salted digest, for tokens that resolved to an entry: every authenticated
 * request looks its token up, and a hit skips the HMAC (the entry itself comes from the token
 * index's cache, which revocations, uses and renewals keep current). A digest never goes stale
 * while the salt stays, so the owner clears the memo with the salt. Bounded: past the limit the
 * oldest go.
 */
export class TokenDigestMemo {
  readonly #digests = new Map<string, string>();

  constructor(private readonly limit = DIGEST_MEMO_LIMIT) {}

  get(token: string): string | undefined {
    return this.#digests.get(token);
  }

  remember(token: string, digest: string): void {
    if (this.#digests.has(token)) return;
    if (this.#digests.size >= this.limit) {
      const oldest = this.#digests.keys().next().value;
      if (oldest !== undefined) this.#digests.delete(oldest);
    }
    this.#digests.set(token, digest);
  }

  clear(): void {
    this.#digests.clear();
  }
}
