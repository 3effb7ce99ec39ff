import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { Field, SelectField } from '../../components/field.js';
import { Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { engineHome } from './engines.js';

/** The engine types Ward has (catalog.ts), with KV's two versions apart. */
const TYPES: readonly (readonly [string, string])[] = [
  ['kv-v2', 'KV version 2'],
  ['kv-v1', 'KV version 1'],
  ['totp', 'TOTP'],
  ['transit', 'Transit'],
  ['pki', 'PKI'],
  ['database', 'Database'],
  ['ldap', 'LDAP'],
  ['ssh', 'SSH'],
  ['aws', 'AWS'],
];

/** Enable a secrets engine at a path (`sys/mounts/<path>`). */
export function EngineEnable() {
  const { api, router } = useApp();
  const [kind, setKind] = useState('kv-v2');
  const [path, setPath] = useState('');
  const [description, setDescription] = useState('');
  const [defaultTtl, setDefaultTtl] = useState('');
  const [maxTtl, setMaxTtl] = useState('');
  const type = kind.startsWith('kv-') ? 'kv' : kind;
  const enable = useAction(async () => {
    const mount = (path.trim() || type).replace(/^\/+|\/+$/g, '');
    const config: Record<string, string> = {};
    if (defaultTtl) config.default_lease_ttl = defaultTtl;
    if (maxTtl) config.max_lease_ttl = maxTtl;
    const body: Record<string, unknown> = { type, description, config };
    if (type === 'kv') body.options = { version: kind === 'kv-v2' ? '2' : '1' };
    await api.write(`sys/mounts/${mount}`, body);
    router.navigate(engineHome({ type, path: `${mount}/` }));
  });
  return (
    <Page title="Enable a secrets engine" crumbs={[{ label: 'Secrets', to: '/secrets' }]}>
      <ActionForm action={enable} submitLabel="Enable engine" class="form">
        <SelectField label="Type" value={kind} options={TYPES} onChange={setKind} />
        <Field label="Path" value={path} onInput={setPath} hint={`Where to enable it; empty: ${type}.`} isCode />
        <Field label="Description" value={description} onInput={setDescription} />
        <Field
          label="Default lease TTL"
          value={defaultTtl}
          onInput={setDefaultTtl}
          hint="Such as 1h; empty: the system's."
          isCode
        />
        <Field label="Maximum lease TTL" value={maxTtl} onInput={setMaxTtl} hint="Empty: the system's." isCode />
      </ActionForm>
    </Page>
  );
}
