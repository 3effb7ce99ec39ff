import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { CredentialFacts } from '../credentials.js';
import { engineCrumbs } from '../engine-crumbs.js';

/** One dynamic database role: its settings and Get credentials (a new user, with its lease). */
export function DbRole({ params }: ScreenProps) {
  const { api } = useApp();
  const mount = params.mount ?? '';
  const name = params.name ?? '';
  const role = useLoad(() => api.read(`${mount}/roles/${name}`), [mount, name]);
  const [creds, setCreds] = useState<Record<string, unknown>>();
  const issue = useAction(async () => {
    setCreds(undefined);
    const res = await api.request('GET', `${mount}/creds/${name}`);
    setCreds({ ...res?.data, lease_id: res?.lease_id, lease_duration: res?.lease_duration });
  });
  return (
    <Page
      title={name}
      crumbs={engineCrumbs(mount, 'database', { label: 'Roles', to: pathOf('secrets', mount, 'database', 'roles') })}
    >
      <ErrorMessage error={role.error} />
      {role.isLoading && !role.data && <Loading />}
      {role.data && <CredentialFacts data={role.data} label="Role" />}
      <div class="actions">
        <button type="button" disabled={issue.isPending} onClick={() => issue.run()}>
          Get credentials
        </button>
      </div>
      <ErrorMessage error={issue.error} />
      {creds && (
        <section aria-labelledby="creds-title">
          <h2 id="creds-title">Credentials</h2>
          <CredentialFacts data={creds} label="Credentials" />
        </section>
      )}
    </Page>
  );
}
