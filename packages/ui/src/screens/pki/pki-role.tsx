import { ActionForm } from '../../components/action-form.js';
import './pki.css';
import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field } from '../../components/field.js';
import { Link } from '../../components/link.js';
import { MaskedValue } from '../../components/masked-value.js';
import { OutputBlock } from '../../components/output-block.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { engineCrumbs } from '../engine-crumbs.js';

interface Role {
  allowed_domains?: string[];
  allow_subdomains?: boolean;
  max_ttl?: number;
  key_type?: string;
}

interface Issued {
  certificate: string;
  private_key: string;
  serial_number: string;
}

/**
 * One PKI role: its settings and a form that issues a certificate from it. The private key is
 * shown only now (masked until Reveal), in the page's memory only.
 */
export function PkiRole({ params }: ScreenProps) {
  const { api } = useApp();
  const mount = params.mount ?? '';
  const name = params.name ?? '';
  const role = useLoad(() => api.read<Role>(`${mount}/roles/${name}`), [mount, name]);
  const [commonName, setCommonName] = useState('');
  const [altNames, setAltNames] = useState('');
  const [ttl, setTtl] = useState('');
  const [issued, setIssued] = useState<Issued>();
  const issue = useAction(async () => {
    setIssued(undefined);
    const body: Record<string, string> = { common_name: commonName.trim() };
    if (altNames.trim()) body.alt_names = altNames.trim();
    if (ttl.trim()) body.ttl = ttl.trim();
    const res = await api.write<Issued>(`${mount}/issue/${name}`, body);
    if (res?.data) setIssued(res.data);
  });
  return (
    <Page
      title={name}
      crumbs={engineCrumbs(mount, 'pki', { label: 'Roles', to: pathOf('secrets', mount, 'pki', 'roles') })}
    >
      <ErrorMessage error={role.error} />
      {role.isLoading && !role.data && <Loading />}
      {role.data && (
        <dl class="facts">
          <div>
            <dt>Allowed domains</dt>
            <dd class="code">{(role.data.allowed_domains ?? []).join(', ') || '—'}</dd>
          </div>
          <div>
            <dt>Subdomains</dt>
            <dd>{role.data.allow_subdomains ? 'allowed' : 'not allowed'}</dd>
          </div>
          <div>
            <dt>Maximum TTL</dt>
            <dd>{role.data.max_ttl ? `${role.data.max_ttl} s` : 'the engine’s'}</dd>
          </div>
          <div>
            <dt>Key type</dt>
            <dd>{role.data.key_type}</dd>
          </div>
        </dl>
      )}
      <h2>Issue certificate</h2>
      <ActionForm action={issue} submitLabel="Issue certificate">
        <Field label="Common name" value={commonName} onInput={setCommonName} isCode required />
        <Field
          label="Alternative names"
          value={altNames}
          onInput={setAltNames}
          isCode
          hint="Comma-separated DNS names or emails."
        />
        <Field label="TTL" value={ttl} onInput={setTtl} isCode hint="Empty: the role's default." />
      </ActionForm>
      {issued && (
        <section aria-labelledby="issued-title">
          <h2 id="issued-title">Issued certificate</h2>
          <p>
            Serial{' '}
            <Link to={pathOf('secrets', mount, 'pki', 'certs', issued.serial_number)} class="code pki-id">
              {issued.serial_number}
            </Link>
          </p>
          <OutputBlock label="Certificate" value={issued.certificate} />
          <h3>Private key</h3>
          <p>It is shown only now: the server does not keep it.</p>
          <MaskedValue name="Private key" value={issued.private_key} />
        </section>
      )}
    </Page>
  );
}
