import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import type { ScreenProps } from '../../screen.js';
import { engineCrumbs } from '../engine-crumbs.js';
import { TransitOperationForm } from './transit-operation.js';

interface TransitKeyInfo {
  type: string;
  latest_version: number;
  min_decryption_version: number;
  min_encryption_version: number;
  deletion_allowed: boolean;
  exportable: boolean;
  supports_encryption: boolean;
  supports_signing: boolean;
  keys: Record<string, unknown>;
}

/** One transit key: its versions and settings, rotate, and the operation forms. */
export function TransitKey({ params }: ScreenProps) {
  const { api } = useApp();
  const mount = params.mount ?? '';
  const name = params.name ?? '';
  const info = useLoad(() => api.read<TransitKeyInfo>(`${mount}/keys/${name}`), [mount, name]);
  const rotate = useAction(async () => {
    await api.write(`${mount}/keys/${name}/rotate`, {});
    info.reload();
  });
  return (
    <Page
      title={name}
      crumbs={engineCrumbs(mount, 'transit')}
      actions={
        <button type="button" class="secondary" disabled={rotate.isPending} onClick={() => rotate.run()}>
          Rotate key
        </button>
      }
    >
      <ErrorMessage error={rotate.error} />
      <ErrorMessage error={info.error} />
      {info.isLoading && !info.data && <Loading />}
      {info.data && (
        <>
          <dl class="facts">
            <div>
              <dt>Type</dt>
              <dd class="code">{info.data.type}</dd>
            </div>
            <div>
              <dt>Latest version</dt>
              <dd>{info.data.latest_version}</dd>
            </div>
            <div>
              <dt>Minimum decryption version</dt>
              <dd>{info.data.min_decryption_version}</dd>
            </div>
            <div>
              <dt>Exportable</dt>
              <dd>{info.data.exportable ? 'yes' : 'no'}</dd>
            </div>
            <div>
              <dt>Deletion allowed</dt>
              <dd>{info.data.deletion_allowed ? 'yes' : 'no'}</dd>
            </div>
          </dl>
          <TransitOperationForm mount={mount} name={name} type={info.data.type} />
        </>
      )}
    </Page>
  );
}
