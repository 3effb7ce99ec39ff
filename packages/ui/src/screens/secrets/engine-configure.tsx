import type { MountConfigInfo } from '@ward/secrets-client';
import { useLayoutEffect, useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field } from '../../components/field.js';
import { formatSeconds } from '../../components/format.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import type { ScreenProps } from '../../screen.js';
import { engineHome, kvVersionOf } from './engines.js';
import { KvEngineConfig } from './kv-engine-config.js';

/** An engine's settings: tune its description and lease TTLs (`sys/mounts/<path>/tune`), or disable it. */
export function EngineConfigure({ params }: ScreenProps) {
  const { api, router } = useApp();
  const mount = `${params.mount ?? ''}/`;
  const info = useLoad(async () => {
    const [ui, tune] = await Promise.all([
      api.read<{ type: string; description: string; options: Record<string, string> | null }>(
        `sys/internal/ui/mounts/${mount}`,
      ),
      api.read<MountConfigInfo & { description?: string }>(`sys/mounts/${mount}tune`),
    ]);
    return { ui, tune };
  }, [mount]);
  const [description, setDescription] = useState('');
  const [defaultTtl, setDefaultTtl] = useState('');
  const [maxTtl, setMaxTtl] = useState('');
  const [saved, setSaved] = useState(false);
  // Filled in the same turn as the first render with the data, so nothing typed in between is overwritten.
  useLayoutEffect(() => {
    const t = info.data?.tune;
    if (!t) return;
    setDescription(t.description ?? info.data?.ui?.description ?? '');
    setDefaultTtl(formatSeconds(t.default_lease_ttl));
    setMaxTtl(formatSeconds(t.max_lease_ttl));
  }, [info.data]);
  const tune = useAction(async () => {
    setSaved(false);
    await api.write(`sys/mounts/${mount}tune`, {
      description,
      default_lease_ttl: defaultTtl,
      max_lease_ttl: maxTtl,
    });
    setSaved(true);
    info.reload();
  });
  const disable = useAction(async () => {
    await api.delete(`sys/mounts/${mount}`);
    router.navigate('/secrets');
  });
  const type = info.data?.ui?.type;
  const crumbs = [{ label: 'Secrets', to: '/secrets' }];
  if (type) crumbs.push({ label: mount, to: engineHome({ type, path: mount }) });
  return (
    <Page
      title={`Settings of ${mount}`}
      crumbs={crumbs}
      actions={
        <ConfirmButton
          label="Disable engine"
          question={`Disable ${mount}? Every secret stored in it is deleted and its leases revoked.`}
          confirmLabel="Disable and delete its data"
          onConfirm={() => disable.run()}
        />
      }
    >
      <ErrorMessage error={info.error ?? disable.error} />
      {info.isLoading && !info.data && <Loading />}
      {type && (
        <p class="hint">
          Type: {type}
          {info.data?.ui?.options?.version ? `, version ${info.data.ui.options.version}` : ''}
        </p>
      )}
      {info.data?.tune && (
        <ActionForm action={tune} submitLabel="Save settings" class="form">
          <Field label="Description" value={description} onInput={setDescription} />
          <Field
            label="Default lease TTL"
            value={defaultTtl}
            onInput={setDefaultTtl}
            hint="Such as 1h; 0s: the system's."
            isCode
          />
          <Field label="Maximum lease TTL" value={maxTtl} onInput={setMaxTtl} hint="0s: the system's." isCode />
          {saved && <output>Settings saved.</output>}
        </ActionForm>
      )}
      {info.data?.ui && kvVersionOf(info.data.ui) === 2 && <KvEngineConfig mount={mount} />}
    </Page>
  );
}
