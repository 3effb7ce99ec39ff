import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import type { ScreenProps } from '../../screen.js';
import { CredentialFacts } from '../credentials.js';
import { engineCrumbs } from '../engine-crumbs.js';

/** One LDAP dynamic role: Get credentials (`creds/:name`, a new directory entry with its lease). */
export function LdapDynamicRole({ params }: ScreenProps) {
  const { api } = useApp();
  const mount = params.mount ?? '';
  const name = params.name ?? '';
  const [creds, setCreds] = useState<Record<string, unknown>>();
  const issue = useAction(async () => {
    setCreds(undefined);
    const res = await api.request('GET', `${mount}/creds/${name}`);
    setCreds({ ...res?.data, lease_id: res?.lease_id, lease_duration: res?.lease_duration });
  });
  return (
    <Page title={name} crumbs={engineCrumbs(mount, 'ldap')}>
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
