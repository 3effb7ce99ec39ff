/** The frame around every screen: the status header (version, seal, HA role, cluster, namespace) and the main navigation. @module */
import { useApp, useSubscription } from '../app-context.js';

/** The server's state, always in view: version, sealed, HA role, cluster name and the session's namespace. */
export function StatusHeader() {
  const { status, session, router } = useApp();
  useSubscription(status);
  useSubscription(session);
  const s = status.status;
  const namespace = session.data?.namespace || 'root';
  return (
    <header class="status-header">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <span class="brand">Ward</span>
      {s && (
        <dl class="status" aria-label="Server status">
          <div>
            <dt>Version</dt>
            <dd>{s.version}</dd>
          </div>
          <div>
            <dt>Seal</dt>
            <dd class={s.sealed ? 'bad' : 'good'}>
              {!s.initialized ? 'Not initialized' : s.sealed ? 'Sealed' : 'Unsealed'}
            </dd>
          </div>
          <div>
            <dt>HA</dt>
            <dd>{s.haRole === 'none' ? 'off' : s.haRole}</dd>
          </div>
          {s.clusterName && (
            <div>
              <dt>Cluster</dt>
              <dd>{s.clusterName}</dd>
            </div>
          )}
          <div>
            <dt>Namespace</dt>
            <dd>{namespace}</dd>
          </div>
        </dl>
      )}
      {session.data && (
        <div class="who">
          <span class="who-name">{session.data.displayName}</span>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              session.signOut();
              // The next person to sign in starts at the beginning, not on the last one's screen.
              router.navigate('/secrets', { replace: true });
            }}
          >
            Sign out
          </button>
        </div>
      )}
    </header>
  );
}
