import './pki.css';
import { useApp } from '../../app-context.js';
import { NamedList } from '../../components/named-list.js';
import { Page } from '../../components/page.js';
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
      <NamedList
        list={certs}
        empty="No certificates yet."
        hrefOf={(s) => pathOf('secrets', mount, 'pki', 'certs', s)}
        linkClass="pki-id"
      />
    </Page>
  );
}
