import { useApp } from '../../app-context.js';
import { useLoad } from '../../hooks/use-load.js';
import { kvVersionOf } from '../secrets/engines.js';
import { KvMount } from './kv-api.js';

/** The KV mount a screen's `:mount` names (its version from `sys/internal/ui/mounts/<mount>`). */
export function useKvMount(segment: string) {
  const { api } = useApp();
  const path = `${segment}/`;
  return useLoad(async () => {
    const info = await api.read<{ type: string; options: Record<string, string> | null }>(
      `sys/internal/ui/mounts/${path}`,
    );
    const version = info ? kvVersionOf(info) : undefined;
    if (!version) throw new Error(`${path} is not a KV secrets engine`);
    return new KvMount(api, path, version);
  }, [segment]);
}

/** The breadcrumbs of a KV path: the Secrets list, the mount, and each folder of `path`. */
export function kvCrumbs(segment: string, path: string) {
  const crumbs = [
    { label: 'Secrets', to: '/secrets' },
    { label: `${segment}/`, to: `/secrets/${encodeURIComponent(segment)}/kv/` },
  ];
  const parts = path.split('/').filter(Boolean);
  const folders = path.endsWith('/') ? parts : parts.slice(0, -1);
  let prefix = '';
  for (const part of folders) {
    prefix += `${part}/`;
    crumbs.push({ label: `${part}/`, to: `/secrets/${encodeURIComponent(segment)}/kv/${encodePath(prefix)}` });
  }
  return crumbs;
}

/** A KV path in a URL: each segment encoded, the slashes kept. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
