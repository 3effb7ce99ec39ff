import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { Field, TextAreaField } from '../../components/field.js';
import { OutputBlock } from '../../components/output-block.js';
import { useAction } from '../../hooks/use-action.js';
import { parseJsonObject } from './json-object.js';
import { ToolPage } from './tool-page.js';

/** `sys/wrapping/wrap`: any JSON object into a single-use wrapping token. */
export function WrapTool() {
  const { api } = useApp();
  const [data, setData] = useState('{\n  "key": "value"\n}');
  const [ttl, setTtl] = useState('30m');
  const [token, setToken] = useState<string>();
  const action = useAction(async () => {
    setToken(undefined);
    const res = await api.request('PUT', 'sys/wrapping/wrap', {
      body: parseJsonObject(data, 'Data to wrap'),
      headers: { 'X-Vault-Wrap-TTL': ttl },
    });
    setToken(res?.wrap_info?.token);
  });
  return (
    <ToolPage
      title="Wrap"
      intro="Wrap data in a single-use token: whoever unwraps it gets the data, once."
      submit="Wrap data"
      action={action}
      result={token && <OutputBlock label="Wrapping token" value={token} />}
    >
      <TextAreaField label="Data to wrap" value={data} onInput={setData} rows={6} hint="A JSON object." />
      <Field label="Wrap TTL" value={ttl} onInput={setTtl} hint="How long the token is valid: 30m, 1h, 3600." />
    </ToolPage>
  );
}
