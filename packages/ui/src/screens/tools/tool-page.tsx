import type { ComponentChildren } from 'preact';
import { ErrorMessage } from '../../components/error-message.js';
import { Page } from '../../components/page.js';
import type { Action } from '../../hooks/use-action.js';

/** The frame every tool shares: its form, a submit button, the server's error in place, then the answer. */
export function ToolPage(p: {
  title: string;
  intro: string;
  submit: string;
  action: Action<[]>;
  children: ComponentChildren;
  result?: ComponentChildren;
}) {
  return (
    <Page title={p.title} crumbs={[{ label: 'Tools', to: '/tools' }]}>
      <p>{p.intro}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          p.action.run();
        }}
      >
        {p.children}
        <div class="actions">
          <button type="submit" disabled={p.action.isPending}>
            {p.submit}
          </button>
        </div>
        <ErrorMessage error={p.action.error} />
      </form>
      {p.result}
    </Page>
  );
}
