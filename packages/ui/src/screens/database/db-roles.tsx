import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { Field, TextAreaField } from '../../components/field.js';
import { NamedList } from '../../components/named-list.js';
import { Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { engineCrumbs } from '../engine-crumbs.js';

/** A database engine's dynamic roles (each a link to its credentials) and a form that creates one. */
export function DbRoles({ params }: ScreenProps) {
  const { api, router } = useApp();
  const mount = params.mount ?? '';
  const roles = useLoad(() => api.list(`${mount}/roles`), [mount]);
  const [name, setName] = useState('');
  const [dbName, setDbName] = useState('');
  const [statements, setStatements] = useState('');
  const [defaultTtl, setDefaultTtl] = useState('1h');
  const [maxTtl, setMaxTtl] = useState('24h');
  const create = useAction(async () => {
    const role = name.trim();
    await api.write(`${mount}/roles/${role}`, {
      db_name: dbName.trim(),
      creation_statements: statements
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean),
      default_ttl: defaultTtl,
      max_ttl: maxTtl,
    });
    router.navigate(pathOf('secrets', mount, 'database', 'roles', role));
  });
  return (
    <Page title="Roles" crumbs={engineCrumbs(mount, 'database')}>
      <NamedList list={roles} empty="No roles yet." hrefOf={(r) => pathOf('secrets', mount, 'database', 'roles', r)} />
      <h2>Create role</h2>
      <ActionForm action={create} submitLabel="Create role">
        <Field label="Role name" value={name} onInput={setName} isCode required />
        <Field label="Connection name" value={dbName} onInput={setDbName} isCode required />
        <TextAreaField
          label="Creation statements"
          value={statements}
          onInput={setStatements}
          rows={4}
          hint="One statement a line; {{name}}, {{password}} and {{expiration}} are filled in."
        />
        <Field label="Default TTL" value={defaultTtl} onInput={setDefaultTtl} isCode />
        <Field label="Maximum TTL" value={maxTtl} onInput={setMaxTtl} isCode />
      </ActionForm>
    </Page>
  );
}
