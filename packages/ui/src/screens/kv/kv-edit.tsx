import { useLayoutEffect, useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field } from '../../components/field.js';
import { editorData, editorStateOf, KvEditor, type KvEditorState } from '../../components/kv-editor.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import type { ScreenProps } from '../../screen.js';
import { mergePatchOf } from './kv-api.js';
import { encodePath, kvCrumbs, useKvMount } from './use-kv-mount.js';

/**
 * Create a secret (`/create`), write a new version of one (`/edit/<path>`), or patch it
 * (`?patch=1`: only the keys that changed are sent, as a merge patch, so others' changes stay).
 */
export function KvEdit({ params }: ScreenProps) {
  const { router } = useApp();
  const segment = params.mount ?? '';
  const editing = params.path;
  const isPatch = editing !== undefined && router.location.query.get('patch') === '1';
  const mount = useKvMount(segment);
  const kv = mount.data;
  const current = useLoad(async () => {
    if (!kv || editing === undefined) return undefined;
    const [read, metadata] = await Promise.all([
      kv.read(editing),
      kv.version === 2 ? kv.metadata(editing) : Promise.resolve(undefined),
    ]);
    return { data: read?.data ?? {}, version: metadata?.current_version };
  }, [kv, editing]);
  const [path, setPath] = useState(router.location.query.get('prefix') ?? '');
  const [editor, setEditor] = useState<KvEditorState>(editorStateOf({}));
  const [problem, setProblem] = useState<string | undefined>();
  // Filled in the same turn as the first render with the data, so nothing typed in between is overwritten.
  useLayoutEffect(() => {
    if (current.data) setEditor(editorStateOf(current.data.data));
  }, [current.data]);
  const base = `/secrets/${encodeURIComponent(segment)}`;
  const save = useAction(async () => {
    if (!kv) return;
    const target = (editing ?? path).replace(/^\/+/, '');
    if (!target || target.endsWith('/')) {
      setProblem('enter a path that names a secret (not ending in /)');
      return;
    }
    const result = editorData(editor);
    if ('problem' in result) {
      setProblem(result.problem);
      return;
    }
    setProblem(undefined);
    if (isPatch) await kv.patch(target, mergePatchOf(current.data?.data ?? {}, result.data));
    // A new version is written against the one it was edited from (check-and-set); a new secret against none.
    else await kv.write(target, result.data, kv.version === 2 ? (current.data?.version ?? 0) : undefined);
    router.navigate(`${base}/show/${encodePath(target)}`);
  });
  const title = editing === undefined ? 'Create secret' : isPatch ? `Patch ${editing}` : `New version of ${editing}`;
  return (
    <Page title={title} crumbs={kvCrumbs(segment, editing ?? path)}>
      <ErrorMessage error={mount.error ?? current.error} />
      {editing !== undefined && current.isLoading && <Loading />}
      {kv && (editing === undefined || current.data) && (
        <form
          class="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            save.run();
          }}
        >
          {editing === undefined && (
            <Field label="Path" value={path} onInput={setPath} isCode hint="Folders are made by slashes: app/db." />
          )}
          {isPatch && (
            <p class="hint">
              Only the keys you change, add or remove are sent; the server keeps the others as they are.
            </p>
          )}
          <KvEditor state={editor} onChange={setEditor} problem={problem} />
          {problem && (
            <p class="error" role="alert">
              {problem}
            </p>
          )}
          <ErrorMessage error={save.error} />
          <div class="actions">
            <button type="submit" disabled={save.isPending}>
              Save
            </button>
            <button
              type="button"
              class="secondary"
              onClick={() =>
                router.navigate(
                  editing === undefined
                    ? `${base}/kv/${encodePath(path.replace(/[^/]*$/, ''))}`
                    : `${base}/show/${encodePath(editing)}`,
                )
              }
            >
              Cancel
            </button>
          </div>
        </form>
      )}
    </Page>
  );
}
