import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { CheckboxField, SelectField, TextAreaField } from '../../components/field.js';
import { OutputBlock } from '../../components/output-block.js';
import { useAction } from '../../hooks/use-action.js';
import { ToolPage } from './tool-page.js';

const ALGORITHMS = ['sha2-256', 'sha2-224', 'sha2-384', 'sha2-512', 'sha3-224', 'sha3-256', 'sha3-384', 'sha3-512'];

/** `sys/tools/hash`: a digest of the input, computed on the server. */
export function HashTool() {
  const { api } = useApp();
  const [input, setInput] = useState('');
  const [isBase64, setBase64] = useState(false);
  const [algorithm, setAlgorithm] = useState('sha2-256');
  const [format, setFormat] = useState('hex');
  const [sum, setSum] = useState<string>();
  const action = useAction(async () => {
    setSum(undefined);
    // The API takes base64; plain text is encoded here (UTF-8) unless it already is base64.
    const encoded = isBase64 ? input.trim() : btoa(String.fromCharCode(...new TextEncoder().encode(input)));
    const res = await api.write<{ sum: string }>('sys/tools/hash', { input: encoded, algorithm, format });
    setSum(res?.data?.sum);
  });
  return (
    <ToolPage
      title="Hash"
      intro="Hash data on the server."
      submit="Hash"
      action={action}
      result={sum && <OutputBlock label="Sum" value={sum} />}
    >
      <TextAreaField label="Input" value={input} onInput={setInput} rows={4} />
      <CheckboxField label="The input is already base64-encoded" checked={isBase64} onChange={setBase64} />
      <SelectField
        label="Algorithm"
        value={algorithm}
        onChange={setAlgorithm}
        options={ALGORITHMS.map((a) => [a, a] as const)}
      />
      <SelectField
        label="Output format"
        value={format}
        onChange={setFormat}
        options={[
          ['hex', 'hex'],
          ['base64', 'base64'],
        ]}
      />
    </ToolPage>
  );
}
