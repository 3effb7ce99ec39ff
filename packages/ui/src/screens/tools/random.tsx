import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { Field, SelectField } from '../../components/field.js';
import { OutputBlock } from '../../components/output-block.js';
import { useAction } from '../../hooks/use-action.js';
import { ToolPage } from './tool-page.js';

/** `sys/tools/random`: bytes from the server's random source. */
export function RandomTool() {
  const { api } = useApp();
  const [bytes, setBytes] = useState('32');
  const [format, setFormat] = useState('base64');
  const [out, setOut] = useState<string>();
  const action = useAction(async () => {
    setOut(undefined);
    const res = await api.write<{ random_bytes: string }>('sys/tools/random', { bytes: Number(bytes), format });
    setOut(res?.data?.random_bytes);
  });
  return (
    <ToolPage
      title="Random"
      intro="Generate random bytes on the server."
      submit="Generate"
      action={action}
      result={out && <OutputBlock label="Random bytes" value={out} />}
    >
      <Field label="Number of bytes" value={bytes} onInput={setBytes} type="number" inputMode="numeric" />
      <SelectField
        label="Output format"
        value={format}
        onChange={setFormat}
        options={[
          ['base64', 'base64'],
          ['hex', 'hex'],
        ]}
      />
    </ToolPage>
  );
}
