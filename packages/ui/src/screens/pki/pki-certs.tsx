import './pki.css';
import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Link } from '../../components/link.js';
import { Loading, Page } from '../../components/page.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { engineCrumbs } from '../engine-crumbs.js';

/** The serials of every certificate a PKI engine issued, each a link to the certificate. */
export function PkiCerts({ params }: ScreenProps) {
  const { api } = useApp();
  const mount = params.mount ?? '';
  const certs = useLoad(() => api.list(`${mount}/certs`), [mount]);
  return (
    <Page title="Certificates" crumbs={engineCrumbs(mount, 'pki')}>
      <ErrorMessage error={certs.error} />
      {certs.isLoading && !certs.data && <Loading />}
      {certs.data && certs.data.length === 0 && <p>No certificates yet.</p>}
      {certs.data && certs.data.length > 0 && (
        <ul class="list">
          {certs.data.map((s) => (
            <li key={s}>
              <Link to={pathOf('secrets', mount, 'pki', 'certs', s)} class="code pki-id">
                {s}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
