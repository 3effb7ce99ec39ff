import { useApp } from '../../app-context.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { OutputBlock } from '../../components/output-block.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { engineCrumbs } from '../engine-crumbs.js';

interface Cert {
  certificate: string;
  revocation_time?: number;
}

/** One issued certificate by serial: its PEM, whether it is revoked, and revoke (asked twice). */
export function PkiCert({ params }: ScreenProps) {
  const { api } = useApp();
  const mount = params.mount ?? '';
  const serial = params.serial ?? '';
  const cert = useLoad(() => api.read<Cert>(`${mount}/cert/${serial}`), [mount, serial]);
  const revoke = useAction(async () => {
    await api.write(`${mount}/revoke`, { serial_number: serial });
    cert.reload();
  });
  const revokedAt = cert.data?.revocation_time ?? 0;
  return (
    <Page
      title={serial}
      crumbs={engineCrumbs(mount, 'pki', { label: 'Certificates', to: pathOf('secrets', mount, 'pki', 'certs') })}
    >
      <ErrorMessage error={cert.error} />
      {cert.isLoading && !cert.data && <Loading />}
      {!cert.isLoading && !cert.error && !cert.data && <p>No certificate has this serial.</p>}
      {cert.data && (
        <>
          <dl class="facts">
            <div>
              <dt>Status</dt>
              <dd>
                {revokedAt > 0 ? `Revoked at ${new Date(revokedAt * 1000).toISOString()}` : 'Valid (not revoked)'}
              </dd>
            </div>
          </dl>
          <OutputBlock label="Certificate" value={cert.data.certificate} />
          {revokedAt === 0 && (
            <div class="actions">
              <ConfirmButton
                label="Revoke certificate"
                question={`Revoke ${serial}? It goes on the CRL and cannot be undone.`}
                confirmLabel="Revoke it"
                disabled={revoke.isPending}
                onConfirm={() => revoke.run()}
              />
            </div>
          )}
          <ErrorMessage error={revoke.error} />
        </>
      )}
    </Page>
  );
}
