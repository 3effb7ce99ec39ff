import { useLayoutEffect, useState } from 'preact/hooks';
import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field, SelectField } from '../../components/field.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import type { ScreenProps } from '../../screen.js';
import { AuthMethodSettings } from '../auth-config/auth-method-settings.js';
import { METHOD_KINDS } from '../auth-config/method-kinds.js';
import { ACCESS_CRUMBS } from './access-shared.js';
import { authMounts } from './auth-methods.js';
import { AppRoleRoles, UserpassUsers } from './auth-users.js';

interface Tune {
  default_lease_ttl: number;
  max_lease_ttl: number;
  description: string;
  listing_visibility?: string;
}

const VISIBILITY = [
  ['', 'Hidden (default)'],
  ['unauth', 'Listed on the sign-in page'],
] as const;

/** One auth method: its settings (`sys/auth/<path>/tune`), disabling it, its configuration, and its users or roles. */
export function AuthMethod({ params }: ScreenProps) {
  const { api, router } = useApp();
  const path = params.path ?? '';
  const mount = useLoad(async () => (await authMounts(api)).find((m) => m.path === `${path}/`), [path]);
  const caps = useCapabilities([`sys/auth/${path}`, `sys/auth/${path}/tune`]);
  const kind = mount.data && METHOD_KINDS.get(mount.data.type);
  const disable = useAction(async () => {
    await api.delete(`sys/auth/${path}`);
    router.navigate('/access/auth');
  });
  return (
    <Page
      title={`${path}/`}
      crumbs={[...ACCESS_CRUMBS, { label: 'Auth methods', to: '/access/auth' }]}
      actions={
        caps.allows(`sys/auth/${path}`, ['delete', 'sudo']) && (
          <ConfirmButton
            label="Disable method"
            question={`Disable ${path}/? Its users, roles and the tokens it issued are gone.`}
            confirmLabel="Disable now"
            onConfirm={() => disable.run()}
          />
        )
      }
    >
      <ErrorMessage error={disable.error ?? mount.error} />
      {mount.isLoading && !mount.data && <Loading />}
      {mount.data && (
        <dl class="facts" aria-label="Auth method">
          <dt>Type</dt>
          <dd>{mount.data.type}</dd>
          <dt>Accessor</dt>
          <dd class="code">{mount.data.accessor}</dd>
        </dl>
      )}
      {caps.allows(`sys/auth/${path}/tune`, ['update', 'sudo']) && <TuneForm path={path} />}
      {mount.data?.type === 'userpass' && <UserpassUsers mount={path} />}
      {mount.data?.type === 'approle' && <AppRoleRoles mount={path} />}
      {kind && <AuthMethodSettings mount={path} kind={kind} />}
    </Page>
  );
}

function TuneForm({ path }: { path: string }) {
  const { api } = useApp();
  const tune = useLoad(() => api.read<Tune>(`sys/auth/${path}/tune`), [path]);
  const [defaultTtl, setDefaultTtl] = useState('');
  const [maxTtl, setMaxTtl] = useState('');
  const [description, setDescription] = useState('');
  const [visibility, setVisibility] = useState('');
  const [saved, setSaved] = useState(false);
  // Filled in the same turn as the first render with the data, so nothing typed in between is overwritten.
  useLayoutEffect(() => {
    if (!tune.data) return;
    setDefaultTtl(String(tune.data.default_lease_ttl));
    setMaxTtl(String(tune.data.max_lease_ttl));
    setDescription(tune.data.description ?? '');
    setVisibility(tune.data.listing_visibility ?? '');
  }, [tune.data]);
  const save = useAction(async () => {
    setSaved(false);
    // Only what was changed: a TTL read back is the effective one, and writing it would pin it.
    const was = tune.data;
    const body: Record<string, unknown> = {};
    if (defaultTtl !== String(was?.default_lease_ttl)) body.default_lease_ttl = defaultTtl;
    if (maxTtl !== String(was?.max_lease_ttl)) body.max_lease_ttl = maxTtl;
    if (description !== (was?.description ?? '')) body.description = description;
    if (visibility !== (was?.listing_visibility ?? '')) body.listing_visibility = visibility;
    await api.write(`sys/auth/${path}/tune`, body);
    setSaved(true);
    tune.reload();
  });
  return (
    <section aria-labelledby="tune-heading">
      <h2 id="tune-heading">Settings</h2>
      <ErrorMessage error={tune.error} />
      {tune.isLoading && !tune.data && <Loading />}
      {tune.data && (
        <ActionForm action={save} submitLabel="Save settings" class="form">
          <Field
            label="Default lease TTL"
            value={defaultTtl}
            onInput={setDefaultTtl}
            hint="Seconds or a duration (1h); 0: the system's."
            isCode
          />
          <Field label="Maximum lease TTL" value={maxTtl} onInput={setMaxTtl} hint="0: the system's." isCode />
          <Field label="Description" value={description} onInput={setDescription} />
          <SelectField label="Listing visibility" value={visibility} options={VISIBILITY} onChange={setVisibility} />
          {saved && <output>Settings saved.</output>}
        </ActionForm>
      )}
    </section>
  );
}
