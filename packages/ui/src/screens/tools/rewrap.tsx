import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { Field } from '../../components/field.js';
import { OutputBlock } from '../../components/output-block.js';
import { useAction } from '../../hooks/use-action.js';
import { ToolPage } from './tool-page.js';

/** `sys/wrapping/rewrap`: the same response in a new token; the old one is spent. */
export function RewrapTool() {
  const { api } = useApp();
  const [token, setToken] = useState('');
  const [fresh, setFresh] = useState<string>();
  const action = useAction(async () => {
    setFresh(undefined);
    setFresh((await api.write('sys/wrapping/rewrap', { token: token.trim() }))?.wrap_info?.token);
  });
  return (
    <ToolPage
      title="Rewrap"
      intro="Move a wrapped response into a new token with the same TTL, for example to refresh a long-lived one."
      submit="Rewrap token"
      action={action}
      result={fresh && <OutputBlock label="New wrapping token" value={fresh} />}
    >
      <Field label="Wrapping token" value={token} onInput={setToken} isCode required />
    </ToolPage>
  );
}
