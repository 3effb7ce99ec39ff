import { useState } from 'preact/hooks';
import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field } from '../../components/field.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { ACCESS_CRUMBS } from '../access/access-shared.js';
import { authMounts } from '../access/auth-methods.js';
import { collectionOf, METHOD_KINDS } from './method-kinds.js';
import { loadPathSchema } from './schema-fields.js';
import { SchemaForm } from './schema-form.js';

/**
 * A named item of an auth method (`auth/<mount>/<collection>/<name>`: a role, a trusted certificate,
 * a group or user mapping): read and edited, or created (without `:name`), in a form from the
 * server's OpenAPI; deleted.
 */
export function AuthItem({ params }: ScreenProps) {
  const { api, router } = useApp();
  const mount = params.mount ?? '';
  const name = params.name;
  const path = params.collection ?? '';
  const loaded = useLoad(async () => {
    const m = (await authMounts(api)).find((a) => a.path === `${mount}/`);
    const collection = collectionOf(m && METHOD_KINDS.get(m.type), path);
    if (!collection) throw new Error(`${mount}/ has no ${path}/ the UI knows (type ${m?.type ?? 'unknown'})`);
    const base = `auth/${mount}/${path}`;
    const [schema, current] = await Promise.all([
      loadPathSchema(api, `${base}/${name ?? 'example'}`, collection.first),
      name ? api.read(`${base}/${name}`) : undefined,
    ]);
    return { base, collection, noun: collection.noun, schema, current };
  }, [mount, path, name]);
  const [newName, setNewName] = useState('');
  const rolePath = loaded.data && `${loaded.data.base}/${name ?? 'example'}`;
  const caps = useCapabilities(rolePath ? [rolePath] : []);
  const remove = useAction(async () => {
    await api.delete(`${loaded.data?.base}/${name}`);
    router.navigate(pathOf('access', 'auth', mount));
  });
  const data = loaded.data;
  const noun = data?.noun ?? 'role';
  return (
    <Page
      title={name ? `${name}` : `Create ${noun}`}
      crumbs={[
        ...ACCESS_CRUMBS,
        { label: 'Auth methods', to: '/access/auth' },
        { label: `${mount}/`, to: `/access/auth/${mount}` },
      ]}
      actions={
        data &&
        name &&
        caps.allows(`${data.base}/${name}`, 'delete') && (
          <ConfirmButton
            label={`Delete ${noun}`}
            question={`Delete the ${noun} ${name}? Sign-ins through it stop.`}
            confirmLabel="Delete now"
            onConfirm={() => remove.run()}
          />
        )
      }
    >
      <ErrorMessage error={remove.error ?? loaded.error} />
      {loaded.isLoading && !data && <Loading />}
      {data && name && !data.current && (
        <p>
          No {noun} is named {name}.
        </p>
      )}
      {data && (!name || data.current) && (
        <>
          <p>
            {data.schema.description} <span class="code">{`${data.base}/${name ?? '<name>'}`}</span>
          </p>
          {data.current && data.collection.facts && (
            <dl class="facts" aria-label={`The ${noun} as the server holds it`}>
              {data.collection.facts(data.current).map(([label, text]) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd class="code">{text}</dd>
                </div>
              ))}
            </dl>
          )}
          {!name && (
            <Field
              label={data.collection.nameLabel ?? `${noun[0]?.toUpperCase()}${noun.slice(1)} name`}
              value={newName}
              onInput={setNewName}
              isCode
              required
            />
          )}
          <SchemaForm
            fields={data.schema.fields}
            current={data.current}
            submitLabel={name ? `Save ${noun}` : `Create ${noun}`}
            savedText={`The ${noun} is saved.`}
            canSave={caps.allows(`${data.base}/${name ?? 'example'}`, name ? 'update' : ['create', 'update'])}
            onSubmit={async (body) => {
              const target = name ?? newName.trim();
              if (!target) throw new Error(`the ${noun} needs a name`);
              await api.write(`${data.base}/${target}`, body);
              if (!name) router.navigate(pathOf('access', 'auth-item', mount, path, target));
            }}
          />
        </>
      )}
    </Page>
  );
}
