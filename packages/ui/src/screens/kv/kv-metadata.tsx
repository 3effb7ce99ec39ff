import { useLayoutEffect, useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { ErrorMessage } from '../../components/error-message.js';
import { CheckboxField, Field } from '../../components/field.js';
import { editorData, editorStateOf, KvEditor, type KvEditorState } from '../../components/kv-editor.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import type { ScreenProps } from '../../screen.js';
import { encodePath, kvCrumbs, useKvMount } from './use-kv-mount.js';

/** A KV v2 secret's metadata: max_versions, cas_required, delete_version_after and custom metadata. */
export function KvMetadata({ params }: ScreenProps) {
  const { router } = useApp();
  const segment = params.mount ?? '';
  const path = params.path ?? '';
  const mount = useKvMount(segment);
  const kv = mount.data;
  // Tagged with the mount it was read for: in the render where the mount arrives, `isLoading` still
  // tells of the load made without one, and a form shown then lost what was typed into it as soon as
  // the real load began (the fields came back with the stored values: a flaky browser test).
  const metadata = useLoad(async () => (kv ? { kv, value: await kv.metadata(path) } : undefined), [kv, path]);
  const loaded = kv !== undefined && metadata.data?.kv === kv ? metadata.data : undefined;
  const [maxVersions, setMaxVersions] = useState('0');
  const [casRequired, setCasRequired] = useState(false);
  const [deleteAfter, setDeleteAfter] = useState('0s');
  const [custom, setCustom] = useState<KvEditorState>(editorStateOf({}));
  const [problem, setProblem] = useState<string | undefined>();
  // Filled in the same turn as the first render with the data, so nothing typed in between is overwritten.
  useLayoutEffect(() => {
    const m = loaded?.value;
    if (!m) return;
    setMaxVersions(String(m.max_versions));
    setCasRequired(m.cas_required);
    setDeleteAfter(m.delete_version_after);
    setCustom(editorStateOf(m.custom_metadata ?? {}));
  }, [loaded]);
  const show = `/secrets/${encodeURIComponent(segment)}/show/${encodePath(path)}`;
  const save = useAction(async () => {
    const result = editorData(custom);
    if ('problem' in result) {
      setProblem(result.problem);
      return;
    }
    setProblem(undefined);
    await kv?.writeMetadata(path, {
      max_versions: Number(maxVersions),
      cas_required: casRequired,
      delete_version_after: deleteAfter,
      custom_metadata: result.data,
    });
    router.navigate(show);
  });
  return (
    <Page title={`Metadata of ${path}`} crumbs={kvCrumbs(segment, path)}>
      <ErrorMessage error={mount.error ?? metadata.error} />
      {metadata.isLoading && <Loading />}
      {kv?.version === 1 && <p>KV version 1 keeps no metadata.</p>}
      {kv?.version === 2 && loaded !== undefined && !metadata.isLoading && (
        <ActionForm action={save} submitLabel="Save metadata" class="form">
          <Field
            label="Maximum versions"
            type="number"
            inputMode="numeric"
            value={maxVersions}
            onInput={setMaxVersions}
            hint="0: the engine's setting (10 by default)."
          />
          <CheckboxField
            label="Require check-and-set"
            checked={casRequired}
            onChange={setCasRequired}
            hint="Every write must name the version it replaces."
          />
          <Field
            label="Delete versions after"
            value={deleteAfter}
            onInput={setDeleteAfter}
            hint="A duration such as 720h; 0s: never."
            isCode
          />
          <h2>Custom metadata</h2>
          <KvEditor state={custom} onChange={setCustom} problem={problem} />
          {problem && (
            <p class="error" role="alert">
              {problem}
            </p>
          )}
        </ActionForm>
      )}
    </Page>
  );
}
