import { useApp } from '../../app-context.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { CredentialFacts } from '../credentials.js';
import { engineCrumbs } from '../engine-crumbs.js';

/** One static database role: its current credentials (password masked) and Rotate now. */
export function DbStaticRole({ params }: ScreenProps) {
  const { api } = useApp();
  const mount = params.mount ?? '';
  const name = params.name ?? '';
  const creds = useLoad(() => api.read(`${mount}/static-creds/${name}`), [mount, name]);
  const rotate = useAction(async () => {
    await api.write(`${mount}/rotate-role/${name}`, {});
    creds.reload();
  });
  return (
    <Page
      title={name}
      crumbs={engineCrumbs(mount, 'database', {
        label: 'Static roles',
        to: pathOf('secrets', mount, 'database', 'static-roles'),
      })}
    >
      <ErrorMessage error={creds.error} />
      {creds.isLoading && !creds.data && <Loading />}
      {creds.data && <CredentialFacts data={creds.data} label="Credentials" />}
      <div class="actions">
        <ConfirmButton
          label="Rotate password"
          question={`Rotate ${name}'s password now? Who uses the current one must read the new one.`}
          confirmLabel="Rotate it"
          disabled={rotate.isPending}
          onConfirm={() => rotate.run()}
        />
      </div>
      <ErrorMessage error={rotate.error} />
    </Page>
  );
}
