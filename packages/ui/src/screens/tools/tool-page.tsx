import type { ComponentChildren } from 'preact';
import { ActionForm } from '../../components/action-form.js';
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
      <ActionForm action={p.action} submitLabel={p.submit}>
        {p.children}
      </ActionForm>
      {p.result}
    </Page>
  );
}
