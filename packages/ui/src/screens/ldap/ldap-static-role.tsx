import { useApp } from '../../app-context.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import type { ScreenProps } from '../../screen.js';
import { CredentialFacts } from '../credentials.js';
import { engineCrumbs } from '../engine-crumbs.js';

/** One LDAP static role: its current credentials (`static-cred`, password masked) and Rotate now. */
export function LdapStaticRole({ params }: ScreenProps) {
  const { api } = useApp();
  const mount = params.mount ?? '';
  const name = params.name ?? '';
  const creds = useLoad(() => api.read(`${mount}/static-cred/${name}`), [mount, name]);
  const rotate = useAction(async () => {
    await api.write(`${mount}/rotate-role/${name}`, {});
    creds.reload();
  });
  return (
    <Page title={name} crumbs={engineCrumbs(mount, 'ldap')}>
      <ErrorMessage error={creds.error} />
      {creds.isLoading && !creds.data && <Loading />}
      {!creds.isLoading && !creds.error && !creds.data && <p>No static role has this name.</p>}
      {creds.data && <CredentialFacts data={creds.data} label="Credentials" />}
      <div class="actions">
        <ConfirmButton
          label="Rotate password"
          question={`Rotate ${name}'s password in the directory now?`}
          confirmLabel="Rotate it"
          disabled={rotate.isPending}
          onConfirm={() => rotate.run()}
        />
      </div>
      <ErrorMessage error={rotate.error} />
    </Page>
  );
}
