import { useState } from 'preact/hooks';
import { useApp, useSubscription } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field } from '../../components/field.js';
import { Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';

/** A sealed server: enter key shares one at a time until the threshold is reached; `Reset` forgets those given. */
export function Unseal() {
  const { api, status } = useApp();
  useSubscription(status);
  const s = status.status;
  const [key, setKey] = useState('');
  const unseal = useAction(async (body: Record<string, unknown>) => {
    await api.request('PUT', 'sys/unseal', { token: null, body });
    setKey('');
    await status.refresh();
  });
  if (!s) return null;
  return (
    <Page title="Unseal">
      <p>
        This server is sealed. Enter {s.threshold} of the {s.shares} unseal keys
        {s.sealType !== 'shamir' ? ' (recovery keys of the auto seal)' : ''}.
      </p>
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault();
          unseal.run({ key });
        }}
      >
        <Field label="Unseal key" type="password" value={key} onInput={setKey} isCode required />
        <div class="field">
          <label for="unseal-progress">Progress</label>
          <progress id="unseal-progress" max={s.threshold} value={s.progress} />
          <output class="hint">
            {s.progress} of {s.threshold} keys given
          </output>
        </div>
        <ErrorMessage error={unseal.error} />
        <div class="actions">
          <button type="submit" disabled={unseal.isPending}>
            Unseal
          </button>
          <button
            type="button"
            class="secondary"
            disabled={unseal.isPending}
            onClick={() => unseal.run({ reset: true })}
          >
            Reset
          </button>
        </div>
      </form>
    </Page>
  );
}
