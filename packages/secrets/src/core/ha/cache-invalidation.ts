/**
 * The caches a server keeps of what lives behind the barrier, each able to drop what a
 * changed storage key made stale. Structural state (mount tables, namespaces, audit devices,
 * CORS, managed keys) is rebuilt whole: it changes rarely, and rebuilding it is what unseal
 * already does.
 */
export interface InvalidationTargets {
  /** The barrier's decrypted-value cache: drops the value cached for `key`. */
  forgetValue(key: string): void;
  /** Another server rotated the barrier's keyring or replaced its root key: reads the stored keyring again. */
  reloadKeyring(): Promise<void>;
  /** The token store's cache: `key` is below its view (`id/<hash>`, `accessor/…`). */
  forgetToken(key: string): void;
  /** A namespace's compiled policies: drops `name` and every ACL built from it. */
  forgetPolicy(namespaceId: string, name: string): void;
  /** A namespace's identity records held in memory: reads `key` (below its view) again. */
  reloadIdentity(namespaceId: string, key: string): Promise<void>;
}

type Rule = { pattern: RegExp; apply: (t: InvalidationTargets, match: RegExpExecArray) => void | Promise<void> };

/** Keys of the keyring itself; its copy of the root key changes with it. */
const KEYRING_KEY = 'core/keyring';

/**
 * Keys whose change rebuilds everything loaded behind the barrier: the mount and auth tables,
 * audit devices, CORS, the cluster record, token mounts, namespaces, and managed keys (which
 * hold live provider connections).
 */
const STRUCTURAL = [
  /^core\/(?!keyring$|root-key$)/,
  /^sys\/namespaces\//,
  /^namespaces\/[^/]+\/core\//,
  /^sys\/managed-keys(-ns)?\//,
];

/** Caches keyed below one key, each told exactly what changed. */
const RULES: Rule[] = [
  { pattern: /^sys\/token\/(.+)$/, apply: (t, m) => t.forgetToken(m[1] as string) },
  { pattern: /^sys\/policy\/([^/]+)$/, apply: (t, m) => t.forgetPolicy('root', m[1] as string) },
  {
    pattern: /^namespaces\/([^/]+)\/policy\/([^/]+)$/,
    apply: (t, m) => t.forgetPolicy(m[1] as string, m[2] as string),
  },
  { pattern: /^identity\/(.+)$/, apply: (t, m) => t.reloadIdentity('root', m[1] as string) },
  {
    pattern: /^namespaces\/([^/]+)\/identity\/(.+)$/,
    apply: (t, m) => t.reloadIdentity(m[1] as string, m[2] as string),
  },
];

/** Whether any of `keys` changes state that only a whole reload brings up to date. */
export function needsReload(keys: readonly string[]): boolean {
  return keys.some((key) => STRUCTURAL.some((pattern) => pattern.test(key)));
}

/**
 * Brings every cache up to date with `keys`, changed by another server. Each key's decrypted
 * value is dropped whatever else caches it; the keyring is read again before anything else,
 * so a value written under a new term decrypts.
 */
export async function invalidateKeys(targets: InvalidationTargets, keys: readonly string[]): Promise<void> {
  if (keys.includes(KEYRING_KEY)) await targets.reloadKeyring();
  for (const key of keys) {
    targets.forgetValue(key);
    for (const { pattern, apply } of RULES) {
      const match = pattern.exec(key);
      if (match) await apply(targets, match);
    }
  }
}
