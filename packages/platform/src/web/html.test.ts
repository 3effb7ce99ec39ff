import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { html } from './html.js';
import { safeReturnTo } from './sign-in-routes.js';

describe('html', () => {
  it('escapes interpolated text but not nested templates', () => {
    const name = '<script>alert("x")</script>&\'';
    assert.equal(
      html`<p title="${name}">${html`<b>${name}</b>`}</p>`.value,
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"><b>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</b></p>',
    );
    assert.equal(html`${['<a>', html`<br>`]}${null}${false}${0}`.value, '&lt;a&gt;<br>0');
  });
});

describe('safeReturnTo', () => {
  it('keeps our own pages and turns anything else into /app', () => {
    assert.equal(safeReturnTo('/app/acme/settings/billing'), '/app/acme/settings/billing');
    assert.equal(safeReturnTo('/app/acme.io/settings/billing'), '/app/acme.io/settings/billing');
    for (const bad of [
      null,
      '',
      'https://evil.example',
      '//evil.example',
      '/app//evil.example',
      '/apple',
      '/app\\evil',
      '/app/../evil',
      '/app/..',
      '/app/./../x',
      '/app/%2e%2e/x',
      '/app/%2E./x',
      '/app/%zz',
    ]) {
      assert.equal(safeReturnTo(bad), '/app', String(bad));
    }
  });
});
