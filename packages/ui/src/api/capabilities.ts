import { useApp } from '../app-context.js';
import { useLoad } from '../hooks/use-load.js';

export type Capability = 'create' | 'read' | 'update' | 'patch' | 'delete' | 'list' | 'sudo';

export interface Capabilities {
  /** Whether the token may do any of `wanted` on `path`; false until the answer is in (hidden, then shown). */
  allows(path: string, wanted: Capability | readonly Capability[]): boolean;
  isLoaded: boolean;
}

/**
 * The session token's capabilities on `paths` (`sys/capabilities-self`), so a screen offers only
 * what the ACL lets it do. The server still decides: this only hides what it would refuse.
 */
export function useCapabilities(paths: readonly string[]): Capabilities {
  const { api, session } = useApp();
  const token = session.token();
  const key = [...paths].sort().join('\n');
  const loaded = useLoad(async () => {
    if (!token || paths.length === 0) return new Map<string, string[]>();
    const res = await api.write<Record<string, unknown>>('sys/capabilities-self', { paths });
    const found = new Map<string, string[]>();
    for (const p of paths) {
      const caps = res?.data?.[p] ?? (paths.length === 1 ? res?.data?.capabilities : undefined);
      found.set(p, Array.isArray(caps) ? caps.map(String) : []);
    }
    return found;
  }, [key, token]);
  return {
    isLoaded: loaded.data !== undefined,
    allows(path, wanted) {
      const caps = loaded.data?.get(path);
      if (!caps || caps.includes('deny')) return false;
      if (caps.includes('root')) return true;
      return (typeof wanted === 'string' ? [wanted] : wanted).some((c) => caps.includes(c));
    },
  };
}
