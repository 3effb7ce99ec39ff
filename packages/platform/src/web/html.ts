/** Markup that is already safe; anything else interpolated into `html` is escaped. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

type Part = SafeHtml | string | number | boolean | null | undefined | readonly Part[];

/**
 * A template tag that escapes every interpolated value unless it is `SafeHtml` (or a list of
 * them), so a plan or organization name can never inject markup.
 */
export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

function render(v: Part): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

/** Who is signed in, for the header's navigation and sign-out button. */
export interface Chrome {
  username: string;
  csrfToken: string;
  /** The organization in view, for its billing link. */
  organizationName?: string;
  /** Which navigation link is the page itself (`aria-current`). */
  current: 'organizations' | 'billing' | null;
}

/**
 * A whole page: one stylesheet, no scripts, a skip link, a header (with navigation and a
 * sign-out button when someone is signed in) and a landmark for the content.
 */
export function page(title: string, body: SafeHtml, chrome?: Chrome): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Ward</title>
<link rel="stylesheet" href="/app/assets/app.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="/app">Ward</a>
${chrome ? navigation(chrome) : ''}
</header>
<main id="main">
${body}
</main>
</body>
</html>
`.value;
}

function navigation(c: Chrome): SafeHtml {
  const link = (href: string, label: string, isCurrent: boolean) =>
    html`<li><a href="${href}"${isCurrent ? html` aria-current="page"` : ''}>${label}</a></li>`;
  const billing = c.organizationName
    ? link(
        `/app/${encodeURIComponent(c.organizationName)}/settings/billing`,
        `Billing: ${c.organizationName}`,
        c.current === 'billing',
      )
    : '';
  return html`<nav aria-label="Main">
<ul>${link('/app', 'Organizations', c.current === 'organizations')}${billing}</ul>
</nav>
<form class="sign-out" method="post" action="/app/session/delete">
<input type="hidden" name="authenticity_token" value="${c.csrfToken}">
<span class="who">Signed in as ${c.username}</span>
<button type="submit" class="secondary">Sign out</button>
</form>`;
}
