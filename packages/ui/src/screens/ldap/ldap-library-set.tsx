import { useState } from 'preact/hooks';
import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field } from '../../components/field.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { CredentialFacts } from '../credentials.js';
import { engineCrumbs } from '../engine-crumbs.js';
import { LdapTabs } from './ldap-tabs.js';
import { type LibrarySet, LibrarySetForm } from './library-set-form.js';
import { type AccountStatus, LibraryStatus } from './library-status.js';

/**
 * One library set: its accounts' status (check in, or force it), Check out (the account and its
 * password, masked, with the lease), its settings, and Delete.
 */
export function LdapLibrarySet({ params }: ScreenProps) {
  const { api, router } = useApp();
  const mount = params.mount ?? '';
  const name = params.name ?? '';
  const base = `${mount}/library/${name}`;
  const caps = useCapabilities([`${base}/check-out`, base]);
  const set = useLoad(() => api.read<LibrarySet>(base), [base]);
  const status = useLoad(() => api.read<Record<string, AccountStatus>>(`${base}/status`), [base]);
  const [ttl, setTtl] = useState('');
  const [creds, setCreds] = useState<Record<string, unknown>>();
  const checkOut = useAction(async () => {
    setCreds(undefined);
    const res = await api.write(`${base}/check-out`, ttl.trim() ? { ttl: ttl.trim() } : {});
    setCreds({ ...res?.data, lease_id: res?.lease_id, lease_duration: res?.lease_duration });
    status.reload();
  });
  const remove = useAction(async () => {
    await api.delete(base);
    router.navigate(pathOf('secrets', mount, 'ldap', 'library'));
  });
  const crumbs = engineCrumbs(mount, 'ldap', { label: 'Library', to: pathOf('secrets', mount, 'ldap', 'library') });
  return (
    <Page title={name} crumbs={crumbs}>
      <LdapTabs mount={mount} current="library" />
      <ErrorMessage error={set.error} />
      {set.isLoading && !set.data && <Loading />}
      {!set.isLoading && !set.error && !set.data && <p>No library set has this name.</p>}
      {set.data && (
        <>
          <h2>Accounts</h2>
          <ErrorMessage error={status.error} />
          {status.data && (
            <LibraryStatus
              mount={mount}
              name={name}
              status={status.data}
              onChange={() => {
                status.reload();
                setCreds(undefined);
              }}
            />
          )}
          {caps.allows(`${base}/check-out`, 'update') && (
            <section aria-labelledby="check-out-title">
              <h2 id="check-out-title">Check out</h2>
              <ActionForm action={checkOut} submitLabel="Check out">
                <Field
                  label="Check-out TTL"
                  value={ttl}
                  onInput={setTtl}
                  isCode
                  hint={`Empty: the set's TTL (${set.data.ttl} s); a longer one is cut to it.`}
                />
              </ActionForm>
              {creds && (
                <section aria-labelledby="checked-out-title">
                  <h3 id="checked-out-title">Checked-out account</h3>
                  <CredentialFacts data={creds} label="Checked-out account" />
                </section>
              )}
            </section>
          )}
          {caps.allows(base, 'update') && (
            <>
              <h2>Settings</h2>
              <LibrarySetForm
                key={JSON.stringify(set.data)}
                initial={set.data}
                submitLabel="Save set"
                onSave={async (_, body) => {
                  await api.write(base, body);
                  set.reload();
                  status.reload();
                }}
              />
            </>
          )}
          {caps.allows(base, 'delete') && (
            <div class="actions">
              <ConfirmButton
                label="Delete set"
                question={`Delete the set ${name}? Its accounts stay in the directory.`}
                confirmLabel="Delete it"
                disabled={remove.isPending}
                onConfirm={() => remove.run()}
              />
            </div>
          )}
          <ErrorMessage error={remove.error} />
        </>
      )}
    </Page>
  );
}
