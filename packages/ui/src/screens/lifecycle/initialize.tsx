import type { InitResponse } from '@ward/secrets-client';
import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field } from '../../components/field.js';
import { Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';

/** An uninitialised server: choose shares and threshold, initialise, then keep the keys. */
export function Initialize({ onInitialized }: { onInitialized(result: InitResponse): void }) {
  const { api } = useApp();
  const [shares, setShares] = useState('5');
  const [threshold, setThreshold] = useState('3');
  const init = useAction(async () => {
    const body = { secret_shares: Number(shares), secret_threshold: Number(threshold) };
    onInitialized((await api.request('PUT', 'sys/init', { token: null, body })) as unknown as InitResponse);
  });
  return (
    <Page title="Initialize">
      <p>This server has not been initialized. Choose how many key shares to make and how many of them unseal it.</p>
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault();
          init.run();
        }}
      >
        <Field label="Key shares" type="number" inputMode="numeric" value={shares} onInput={setShares} required />
        <Field
          label="Key threshold"
          type="number"
          inputMode="numeric"
          value={threshold}
          onInput={setThreshold}
          hint="How many shares are needed to unseal; at most the number of shares."
          required
        />
        <ErrorMessage error={init.error} />
        <button type="submit" disabled={init.isPending}>
          Initialize
        </button>
      </form>
    </Page>
  );
}
