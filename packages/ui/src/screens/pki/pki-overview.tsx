import { ActionForm } from '../../components/action-form.js';
import './pki.css';
import { useState } from 'preact/hooks';
import { ApiError } from '../../api/api.js';
import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field, SelectField } from '../../components/field.js';
import { Link } from '../../components/link.js';
import { OutputBlock } from '../../components/output-block.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { KEY_TYPES } from './pki-key-types.js';

interface Issuer {
  id: string;
  name: string;
  certificate: string;
}

/**
 * A PKI engine's home: its issuers (name, id and CA certificate in PEM), a form that generates an
 * internal root CA while there is none, and links to its roles and certificates.
 */
export function PkiOverview({ params }: ScreenProps) {
  const { api } = useApp();
  const mount = params.mount ?? '';
  const issuers = useLoad(async (): Promise<Issuer[]> => {
    const res = await api
      .request<{ keys?: string[]; key_info?: Record<string, { issuer_name?: string }> }>('LIST', `${mount}/issuers`)
      .catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 404) return undefined;
        throw err;
      });
    const ids = res?.data?.keys ?? [];
    return Promise.all(
      ids.map(async (id) => {
        const issuer = await api.read<{ certificate?: string }>(`${mount}/issuer/${id}`);
        return { id, name: res?.data?.key_info?.[id]?.issuer_name ?? '', certificate: issuer?.certificate ?? '' };
      }),
    );
  }, [mount]);
  const [commonName, setCommonName] = useState('');
  const [ttl, setTtl] = useState('87600h');
  const [keyType, setKeyType] = useState('rsa');
  const generate = useAction(async () => {
    await api.write(`${mount}/root/generate/internal`, { common_name: commonName.trim(), ttl, key_type: keyType });
    issuers.reload();
  });
  return (
    <Page title={`${mount}/`} crumbs={[{ label: 'Secrets', to: '/secrets' }]}>
      <ul class="list">
        <li>
          <Link to={pathOf('secrets', mount, 'pki', 'roles')}>Roles</Link>
        </li>
        <li>
          <Link to={pathOf('secrets', mount, 'pki', 'certs')}>Certificates</Link>
        </li>
      </ul>
      <h2>Issuers</h2>
      <ErrorMessage error={issuers.error} />
      {issuers.isLoading && !issuers.data && <Loading />}
      {issuers.data?.map((i) => (
        <section key={i.id} aria-label={`Issuer ${i.name || i.id}`}>
          <h3>{i.name || 'Unnamed issuer'}</h3>
          <p>
            ID <span class="code pki-id">{i.id}</span>
          </p>
          <OutputBlock label="CA certificate" value={i.certificate} />
        </section>
      ))}
      {issuers.data && issuers.data.length === 0 && (
        <>
          <p>This engine has no issuer yet.</p>
          <h2>Generate root CA</h2>
          <ActionForm action={generate} submitLabel="Generate root">
            <Field label="Common name" value={commonName} onInput={setCommonName} required />
            <Field label="TTL" value={ttl} onInput={setTtl} isCode hint="How long the root is valid: 87600h, 3650d." />
            <SelectField label="Key type" value={keyType} onChange={setKeyType} options={KEY_TYPES} />
          </ActionForm>
        </>
      )}
    </Page>
  );
}
