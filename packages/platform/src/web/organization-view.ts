import { type Chrome, html, page } from './html.js';

export const NEW_ORGANIZATION_PATH = '/app/organizations/new';

/** What the form shows: the values typed so far and, after a refused submission, the error per field. */
export interface OrganizationForm {
  name: string;
  email: string;
  errors: Map<'name' | 'email', string>;
  /** An error that belongs to no one field. */
  formError: string | null;
}

export const EMPTY_ORGANIZATION_FORM: OrganizationForm = { name: '', email: '', errors: new Map(), formError: null };

/** The form to create an organization; each error sits under its field, which points at it. */
export function newOrganizationPage(form: OrganizationForm, chrome: Chrome): string {
  const field = (key: 'name' | 'email', label: string, type: string, hint: string, autocomplete: string) => {
    const error = form.errors.get(key);
    const described = error ? `${key}-hint ${key}-error` : `${key}-hint`;
    return html`<div class="field">
<label for="${key}">${label}</label>
<p class="hint" id="${key}-hint">${hint}</p>
${error ? html`<p class="field-error" id="${key}-error">${error}</p>` : ''}
<input type="${type}" id="${key}" name="${key}" value="${form[key]}" autocomplete="${autocomplete}" required aria-describedby="${described}"${error ? html` aria-invalid="true"` : ''}>
</div>`;
  };
  const count = form.errors.size + (form.formError ? 1 : 0);
  return page(
    'New organization',
    html`<h1>New organization</h1>
${count > 0 ? html`<p class="error" role="alert">The organization was not created: ${form.formError ?? [...form.errors.values()].join('; ')}.</p>` : ''}
<form method="post" action="/app/organizations" novalidate>
<input type="hidden" name="authenticity_token" value="${chrome.csrfToken}">
${field('name', 'Organization name', 'text', 'Letters, digits, "-" and "_", at most 40; unique.', 'organization')}
${field('email', 'Email', 'email', 'Where notices about the organization and its billing go.', 'email')}
<div class="actions"><button type="submit">Create organization</button><a href="/app">Cancel</a></div>
</form>`,
    { ...chrome, current: null },
  );
}
