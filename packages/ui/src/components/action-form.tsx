import type { ComponentChildren } from 'preact';
import type { Action } from '../hooks/use-action.js';
import { ErrorMessage } from './error-message.js';

/**
 * A form whose submit runs `action` (one run at a time: the button is disabled meanwhile), with the
 * server's refusal shown under the button.
 */
export function ActionForm(p: {
  action: Action<[]>;
  /** The submit button's text and accessible name (`Create role`). */
  submitLabel: string;
  class?: string;
  /** Said before the error (`Test sign failed`). */
  errorLabel?: string;
  children: ComponentChildren;
}) {
  return (
    <form
      class={p.class}
      onSubmit={(e) => {
        e.preventDefault();
        p.action.run();
      }}
    >
      {p.children}
      <div class="actions">
        <button type="submit" disabled={p.action.isPending}>
          {p.submitLabel}
        </button>
      </div>
      <ErrorMessage error={p.action.error} label={p.errorLabel} />
    </form>
  );
}
