import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { Field } from '../../components/field.js';
import { OutputBlock } from '../../components/output-block.js';
import { useAction } from '../../hooks/use-action.js';
import { ToolPage } from './tool-page.js';

/** `sys/wrapping/unwrap`: spends a wrapping token and shows the response it held. */
export function UnwrapTool() {
  const { api } = useApp();
  const [token, setToken] = useState('');
  const [data, setData] = useState<string>();
  const action = useAction(async () => {
    setData(undefined);
    const res = await api.write('sys/wrapping/unwrap', { token: token.trim() });
    // A wrapped login holds `auth`, wrapped data holds `data`: show what there is.
    setData(JSON.stringify(res?.auth ?? res?.data ?? {}, null, 2));
  });
  return (
    <ToolPage
      title="Unwrap"
      intro="Unwrap a token to see the data it holds. A wrapping token unwraps once: afterwards it is spent."
      submit="Unwrap data"
      action={action}
      result={data !== undefined && <OutputBlock label="Unwrapped data" value={data} />}
    >
      <Field label="Wrapping token" value={token} onInput={setToken} isCode required />
    </ToolPage>
  );
}
