import { useState } from 'preact/hooks';
import { useApp } from '../app-context.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { ErrorMessage } from '../components/error-message.js';
import { Loading } from '../components/page.js';
import { useAction } from '../hooks/use-action.js';
import { useLoad } from '../hooks/use-load.js';
import { CredentialFacts } from './credentials.js';

/**
 * `Get credentials` of a dynamic role (database `creds/<name>`, LDAP `creds/<name>`): a new account
 * with its lease, kept only while the screen is shown.
 */
export function IssueCredentials(p: { path: string }) {
  const { api } = useApp();
  const [creds, setCreds] = useState<Record<string, unknown>>();
  const issue = useAction(async () => {
    setCreds(undefined);
    const res = await api.request('GET', p.path);
    setCreds({ ...res?.data, lease_id: res?.lease_id, lease_duration: res?.lease_duration });
  });
  return (
    <>
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
    </>
  );
}

/**
 * A static role's current credentials (password masked) and `Rotate password` (asked twice):
 * database `static-creds/` and LDAP `static-cred/`, both rotated at `rotate-role/<name>`.
 */
export function StaticCredentials(p: { credsPath: string; rotatePath: string; question: string }) {
  const { api } = useApp();
  const creds = useLoad(() => api.read(p.credsPath), [p.credsPath]);
  const rotate = useAction(async () => {
    await api.write(p.rotatePath, {});
    creds.reload();
  });
  return (
    <>
      <ErrorMessage error={creds.error} />
      {creds.isLoading && !creds.data && <Loading />}
      {!creds.isLoading && !creds.error && !creds.data && <p>No static role has this name.</p>}
      {creds.data && <CredentialFacts data={creds.data} label="Credentials" />}
      <div class="actions">
        <ConfirmButton
          label="Rotate password"
          question={p.question}
          confirmLabel="Rotate it"
          disabled={rotate.isPending}
          onConfirm={() => rotate.run()}
        />
      </div>
      <ErrorMessage error={rotate.error} />
    </>
  );
}
