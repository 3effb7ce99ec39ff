import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Loading, Page } from '../../components/page.js';
import { useLoad } from '../../hooks/use-load.js';
import type { ScreenProps } from '../../screen.js';
import { ACCESS_CRUMBS } from '../access/access-shared.js';
import { authMounts } from '../access/auth-methods.js';
import { METHOD_KINDS } from './method-kinds.js';
import { loadPathSchema } from './schema-fields.js';
import { SchemaForm } from './schema-form.js';

/** An auth method's own settings (`auth/<mount>/config`): read, edited in a form from the server's OpenAPI, written. */
export function AuthConfig({ params }: ScreenProps) {
  const { api } = useApp();
  const mount = params.mount ?? '';
  const loaded = useLoad(async () => {
    const m = (await authMounts(api)).find((a) => a.path === `${mount}/`);
    const kind = m && METHOD_KINDS.get(m.type);
    if (!kind?.configPath)
      throw new Error(`${mount}/ has no configuration the UI knows (type ${m?.type ?? 'unknown'})`);
    const path = `auth/${mount}/${kind.configPath}`;
    const [schema, current] = await Promise.all([loadPathSchema(api, path, kind.configFirst), api.read(path)]);
    return { path, schema, current };
  }, [mount]);
  const data = loaded.data;
  const caps = useCapabilities(data ? [data.path] : []);
  return (
    <Page
      title={`Configure ${mount}/`}
      crumbs={[
        ...ACCESS_CRUMBS,
        { label: 'Auth methods', to: '/access/auth' },
        { label: `${mount}/`, to: `/access/auth/${mount}` },
      ]}
    >
      <ErrorMessage error={loaded.error} />
      {loaded.isLoading && !data && <Loading />}
      {data && (
        <>
          <p>
            {data.schema.description} <span class="code">{data.path}</span>
          </p>
          <SchemaForm
            fields={data.schema.fields}
            current={data.current}
            submitLabel="Save configuration"
            savedText="Configuration saved."
            canSave={caps.allows(data.path, ['create', 'update'])}
            onSubmit={async (body) => {
              await api.write(data.path, body);
            }}
          />
        </>
      )}
    </Page>
  );
}
