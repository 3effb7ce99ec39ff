import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import type { ScreenProps } from '../../screen.js';
import { engineCrumbs } from '../engine-crumbs.js';

interface KeyInfo {
  account_name: string;
  issuer: string;
  algorithm: string;
  digits: number;
  period: number;
}

/** One TOTP key: its settings, the current code (refreshed on demand) and delete. */
export function TotpKey({ params }: ScreenProps) {
  const { api, router } = useApp();
  const mount = params.mount ?? '';
  const name = params.name ?? '';
  const info = useLoad(() => api.read<KeyInfo>(`${mount}/keys/${name}`), [mount, name]);
  const code = useLoad(() => api.read<{ code: string }>(`${mount}/code/${name}`), [mount, name]);
  const remove = useAction(async () => {
    await api.delete(`${mount}/keys/${name}`);
    router.navigate(`/secrets/${encodeURIComponent(mount)}/totp`);
  });
  return (
    <Page title={name} crumbs={engineCrumbs(mount, 'totp')}>
      <ErrorMessage error={info.error} />
      {info.isLoading && !info.data && <Loading />}
      {info.data && (
        <dl class="facts">
          <div>
            <dt>Issuer</dt>
            <dd>{info.data.issuer}</dd>
          </div>
          <div>
            <dt>Account name</dt>
            <dd>{info.data.account_name}</dd>
          </div>
          <div>
            <dt>Algorithm</dt>
            <dd>{info.data.algorithm}</dd>
          </div>
          <div>
            <dt>Digits, period</dt>
            <dd>
              {info.data.digits} digits every {info.data.period} s
            </dd>
          </div>
        </dl>
      )}
      <h2>Current code</h2>
      <ErrorMessage error={code.error} />
      {code.data && (
        <p>
          <output class="code totp-code" aria-label="Current code">
            {code.data.code}
          </output>
        </p>
      )}
      <div class="actions">
        <button type="button" class="secondary" onClick={code.reload}>
          Refresh code
        </button>
        <button type="button" class="danger" disabled={remove.isPending} onClick={() => remove.run()}>
          Delete key
        </button>
      </div>
      <ErrorMessage error={remove.error} />
    </Page>
  );
}
