import { useLayoutEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/api.js';
import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field } from '../../components/field.js';
import { HclEditor } from '../../components/hcl-editor.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { errorLineOf } from './policy-error.js';

const EXAMPLE = 'path "secret/data/app/*" {\n  capabilities = ["read", "list"]\n}\n';

/** Create (`/policies/create`) or edit an ACL policy; the server's parse error is shown at its line. */
export function PolicyEdit({ params }: ScreenProps) {
  const { api, router } = useApp();
  const existing = params.name;
  const loaded = useLoad(
    async () => (existing ? api.read<{ name: string; policy: string }>(`sys/policies/acl/${existing}`) : undefined),
    [existing],
  );
  const [name, setName] = useState('');
  const [text, setText] = useState(existing ? '' : EXAMPLE);
  // A new policy is saved, then opened at its own address: `?saved=1` carries the confirmation there.
  const [saved, setSaved] = useState(router.location.query.get('saved') === '1');
  // Filled in the same turn as the first render with the data, so nothing typed in between is overwritten.
  useLayoutEffect(() => {
    if (loaded.data) setText(loaded.data.policy);
  }, [loaded.data]);
  const save = useAction(async () => {
    const target = existing ?? name.trim();
    if (!target) throw new Error('enter a name for the policy');
    setSaved(false);
    await api.write(`sys/policies/acl/${target}`, { policy: text });
    setSaved(true);
    if (!existing) router.navigate(`${pathOf('policies', target)}?saved=1`, { replace: true });
  });
  const remove = useAction(async () => {
    await api.delete(`sys/policies/acl/${existing}`);
    router.navigate('/policies');
  });
  const message = save.error instanceof ApiError ? (save.error.errors[0] ?? '') : '';
  const line = message ? errorLineOf(message, text) : undefined;
  const isBuiltin = existing === 'root' || existing === 'default';
  const caps = useCapabilities(existing ? [`sys/policies/acl/${existing}`] : []);
  const canDelete = existing !== undefined && caps.allows(`sys/policies/acl/${existing}`, 'delete');
  return (
    <Page
      title={existing ? `Policy ${existing}` : 'Create policy'}
      crumbs={[{ label: 'Policies', to: '/policies' }]}
      actions={
        canDelete &&
        !isBuiltin && (
          <ConfirmButton
            label="Delete policy"
            question={`Delete the policy ${existing}? Tokens keep its name but lose what it allowed.`}
            confirmLabel="Delete policy now"
            onConfirm={() => remove.run()}
          />
        )
      }
    >
      <ErrorMessage error={loaded.error ?? remove.error} />
      {existing && loaded.isLoading && <Loading />}
      {existing === 'root' && <p>The root policy allows everything and cannot be changed.</p>}
      {(!existing || (loaded.data && existing !== 'root')) && (
        <form
          class="form wide"
          onSubmit={(e) => {
            e.preventDefault();
            save.run();
          }}
        >
          {!existing && <Field label="Name" value={name} onInput={setName} isCode required />}
          <HclEditor
            label="Policy"
            value={text}
            onChange={(t) => {
              setText(t);
              setSaved(false);
            }}
            errorLine={line}
          />
          <ErrorMessage error={save.error} label={line ? `Line ${line}` : undefined} />
          {saved && <output>Policy saved.</output>}
          <div class="actions">
            <button type="submit" disabled={save.isPending}>
              Save policy
            </button>
          </div>
        </form>
      )}
    </Page>
  );
}
