import { useApp } from '../../app-context.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import type { ScreenProps } from '../../screen.js';
import { CredentialFacts } from '../credentials.js';
import { engineCrumbs } from '../engine-crumbs.js';

/** One database connection: its settings as the server returns them (no password), and rotate-root. */
export function DbConnection({ params }: ScreenProps) {
  const { api } = useApp();
  const mount = params.mount ?? '';
  const name = params.name ?? '';
  const config = useLoad(() => api.read(`${mount}/config/${name}`), [mount, name]);
  const rotate = useAction(async () => {
    await api.write(`${mount}/rotate-root/${name}`, {});
    config.reload();
  });
  return (
    <Page title={name} crumbs={engineCrumbs(mount, 'database')}>
      <ErrorMessage error={config.error} />
      {config.isLoading && !config.data && <Loading />}
      {!config.isLoading && !config.error && !config.data && <p>No connection has this name.</p>}
      {config.data && <CredentialFacts data={config.data} label="Connection" />}
      <div class="actions">
        <ConfirmButton
          label="Rotate root credentials"
          question={`Rotate the password of ${name}'s user? Only Ward will know the new one.`}
          confirmLabel="Rotate it"
          disabled={rotate.isPending}
          onConfirm={() => rotate.run()}
        />
      </div>
      <ErrorMessage error={rotate.error} />
      {rotate.isPending && <Loading />}
    </Page>
  );
}
