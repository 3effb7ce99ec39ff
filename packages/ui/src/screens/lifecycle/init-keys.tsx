import type { InitResponse } from '@ward/secrets-client';
import { useEffect, useState } from 'preact/hooks';
import { Page } from '../../components/page.js';

/** The keys, shown once: download them as JSON before going on. */
export function InitKeys({ result, onContinue }: { result: InitResponse; onContinue(): void }) {
  const [url, setUrl] = useState('');
  useEffect(() => {
    const blob = new Blob([`${JSON.stringify(result, null, 2)}\n`], { type: 'application/json' });
    const href = URL.createObjectURL(blob);
    setUrl(href);
    return () => URL.revokeObjectURL(href);
  }, [result]);
  return (
    <Page title="Keep these keys">
      <p>
        The server is initialized. These keys are shown only now: keep each unseal key with a different person, and the
        root token safe. Anyone holding enough keys can unseal the server.
      </p>
      <div class="key-list">
        <h2>Unseal keys</h2>
        <ol>
          {(result.keys_base64.length > 0 ? result.keys_base64 : (result.recovery_keys_base64 ?? [])).map((k) => (
            <li key={k} class="code">
              {k}
            </li>
          ))}
        </ol>
        <h2>Root token</h2>
        <p class="code">{result.root_token}</p>
      </div>
      <div class="actions">
        <a class="button" href={url} download="ward-keys.json">
          Download keys
        </a>
        <button type="button" onClick={onContinue}>
          Continue to unseal
        </button>
      </div>
    </Page>
  );
}
