import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Loading, Page } from '../../components/page.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { IssueCredentials } from '../credential-panels.js';
import { CredentialFacts } from '../credentials.js';
import { engineCrumbs } from '../engine-crumbs.js';

/** One dynamic database role: its settings and Get credentials (a new user, with its lease). */
export function DbRole({ params }: ScreenProps) {
  const { api } = useApp();
  const mount = params.mount ?? '';
  const name = params.name ?? '';
  const role = useLoad(() => api.read(`${mount}/roles/${name}`), [mount, name]);
  return (
    <Page
      title={name}
      crumbs={engineCrumbs(mount, 'database', { label: 'Roles', to: pathOf('secrets', mount, 'database', 'roles') })}
    >
      <ErrorMessage error={role.error} />
      {role.isLoading && !role.data && <Loading />}
      {role.data && <CredentialFacts data={role.data} label="Role" />}
      <IssueCredentials path={`${mount}/creds/${name}`} />
    </Page>
  );
}
