import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { SelectField, TextAreaField } from '../../components/field.js';
import { OutputBlock } from '../../components/output-block.js';
import { useAction } from '../../hooks/use-action.js';
import { fromBase64, toBase64 } from '../engine-crumbs.js';

export type TransitOperation = 'encrypt' | 'decrypt' | 'rewrap' | 'sign' | 'verify' | 'hmac';

const LABELS: Record<TransitOperation, string> = {
  encrypt: 'Encrypt',
  decrypt: 'Decrypt',
  rewrap: 'Rewrap',
  sign: 'Sign',
  verify: 'Verify',
  hmac: 'HMAC',
};

/** The operations a key of `type` supports, as the established engine offers them. */
export function operationsOf(type: string): TransitOperation[] {
  if (type === 'hmac') return ['hmac', 'verify'];
  if (type.startsWith('aes') || type.startsWith('chacha')) return ['encrypt', 'decrypt', 'rewrap', 'hmac'];
  if (type.startsWith('rsa')) return ['encrypt', 'decrypt', 'rewrap', 'sign', 'verify', 'hmac'];
  return ['sign', 'verify', 'hmac'];
}

/**
 * One operation's form on a key: text in (UTF-8, sent base64 as the API wants), the answer out.
 * Ciphertexts and signatures (`vault:v1:…`) go in as they are.
 */
export function TransitOperationForm({ mount, name, type }: { mount: string; name: string; type: string }) {
  const { api } = useApp();
  const ops = operationsOf(type);
  const [op, setOp] = useState<TransitOperation>(ops[0] ?? 'encrypt');
  const [input, setInput] = useState('');
  const [signature, setSignature] = useState('');
  const [result, setResult] = useState<{ label: string; value: string }>();
  const action = useAction(async () => {
    setResult(undefined);
    const at = (what: string) => `${mount}/${what}/${name}`;
    if (op === 'encrypt') {
      const res = await api.write<{ ciphertext: string }>(at('encrypt'), { plaintext: toBase64(input) });
      setResult({ label: 'Ciphertext', value: res?.data?.ciphertext ?? '' });
    } else if (op === 'decrypt') {
      const res = await api.write<{ plaintext: string }>(at('decrypt'), { ciphertext: input.trim() });
      setResult({ label: 'Plaintext', value: fromBase64(res?.data?.plaintext ?? '') });
    } else if (op === 'rewrap') {
      const res = await api.write<{ ciphertext: string }>(at('rewrap'), { ciphertext: input.trim() });
      setResult({ label: 'Ciphertext', value: res?.data?.ciphertext ?? '' });
    } else if (op === 'sign') {
      const res = await api.write<{ signature: string }>(at('sign'), { input: toBase64(input) });
      setResult({ label: 'Signature', value: res?.data?.signature ?? '' });
    } else if (op === 'hmac') {
      const res = await api.write<{ hmac: string }>(at('hmac'), { input: toBase64(input) });
      setResult({ label: 'HMAC', value: res?.data?.hmac ?? '' });
    } else {
      const proof = signature.trim();
      const body = proof.startsWith('vault:') && type === 'hmac' ? { hmac: proof } : { signature: proof };
      const res = await api.write<{ valid: boolean }>(at('verify'), { input: toBase64(input), ...body });
      setResult({
        label: 'Verification',
        value: res?.data?.valid ? 'The signature is valid.' : 'The signature is NOT valid.',
      });
    }
  });
  const inputLabel = op === 'decrypt' || op === 'rewrap' ? 'Ciphertext' : op === 'encrypt' ? 'Plaintext' : 'Input';
  return (
    <section aria-labelledby="operation-title">
      <h2 id="operation-title">Key actions</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          action.run();
        }}
      >
        <SelectField
          label="Operation"
          value={op}
          onChange={(v) => {
            setOp(v as TransitOperation);
            setResult(undefined);
          }}
          options={ops.map((o) => [o, LABELS[o]] as const)}
        />
        <TextAreaField label={inputLabel} value={input} onInput={setInput} rows={4} />
        {op === 'verify' && (
          <TextAreaField
            label={type === 'hmac' ? 'HMAC or signature' : 'Signature'}
            value={signature}
            onInput={setSignature}
            rows={3}
          />
        )}
        <div class="actions">
          <button type="submit" disabled={action.isPending}>
            {LABELS[op]}
          </button>
        </div>
        <ErrorMessage error={action.error} />
      </form>
      {result && <OutputBlock label={result.label} value={result.value} />}
    </section>
  );
}
