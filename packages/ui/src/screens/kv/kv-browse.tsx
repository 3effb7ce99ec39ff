import { useEffect } from 'preact/hooks';
import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Link } from '../../components/link.js';
import { Loading, Page } from '../../components/page.js';
import { useLoad } from '../../hooks/use-load.js';
import type { ScreenProps } from '../../screen.js';
import { encodePath, kvCrumbs, useKvMount } from './use-kv-mount.js';

/** A folder of a KV engine (v1 or v2): its sub-folders and secrets, and `Create secret`. */
export function KvBrowse({ params }: ScreenProps) {
  const { router } = useApp();
  const segment = params.mount ?? '';
  const prefix = params.path ?? '';
  const mount = useKvMount(segment);
  const kv = mount.data;
  const keys = useLoad(async () => (kv ? kv.list(prefix) : []), [kv, prefix]);
  const dataPath = kv ? `${kv.path}${kv.version === 2 ? 'data/' : ''}${prefix}` : '';
  const caps = useCapabilities(dataPath ? [dataPath] : []);
  const base = `/secrets/${encodeURIComponent(segment)}`;
  const isSecretPath = prefix !== '' && !prefix.endsWith('/');
  // A path without a trailing slash names a secret, not a folder.
  useEffect(() => {
    if (isSecretPath) router.navigate(`${base}/show/${encodePath(prefix)}`, { replace: true });
  }, [isSecretPath, base, prefix, router]);
  if (isSecretPath) return null;
  const canCreate = caps.allows(dataPath, ['create', 'update']);
  return (
    <Page
      title={prefix ? `${segment}/${prefix}` : `${segment}/`}
      crumbs={kvCrumbs(segment, prefix).slice(0, -1)}
      actions={
        <>
          {canCreate && (
            <Link to={`${base}/create${prefix ? `?prefix=${encodeURIComponent(prefix)}` : ''}`} class="button">
              Create secret
            </Link>
          )}
          <Link to={`${base}/configure`} class="button secondary">
            Engine settings
          </Link>
        </>
      }
    >
      <ErrorMessage error={mount.error ?? keys.error} />
      {kv && <p class="hint">KV version {kv.version}</p>}
      {keys.isLoading && !keys.data && <Loading />}
      {keys.data && keys.data.length === 0 && !keys.error && <p>No secrets here yet.</p>}
      {keys.data && keys.data.length > 0 && (
        <ul class="list" aria-label={`Secrets in ${segment}/${prefix}`}>
          {keys.data.map((key) => (
            <li key={key}>
              <Link
                to={
                  key.endsWith('/')
                    ? `${base}/kv/${encodePath(prefix + key)}`
                    : `${base}/show/${encodePath(prefix + key)}`
                }
                class="code"
              >
                {key}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
