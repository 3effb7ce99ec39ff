import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../server/testing.js';
import { loadUiAssets, serveUi, UI_CONTENT_SECURITY_POLICY } from './ui-assets.js';

// Issue 34: how the built UI is served, on a built tree of files of its own (index.html, hashed assets, a map).
describe('serving the web UI', () => {
  let dir: string;
  let server: Server;
  let base = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-ui-assets-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(
      join(dir, 'index.html'),
      '<!doctype html><script type="module" src="/ui/assets/index-abc.js"></script>',
    );
    await writeFile(join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
    await writeFile(join(dir, 'assets', 'index-abc.js.map'), '{}');
    await writeFile(join(dir, 'assets', 'index-abc.css'), 'body{}');
    const assets = await loadUiAssets(dir);
    assert.ok(assets);
    server = createServer((req, res) => {
      if (!serveUi(assets, req, res)) res.writeHead(418).end('api');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('redirects / and /ui to /ui/, and leaves every other path to the API', async () => {
    for (const path of ['/', '/ui']) {
      const res = await fetch(`${base}${path}`, { redirect: 'manual' });
      assert.equal(res.status, 307, path);
      assert.equal(res.headers.get('location'), '/ui/');
    }
    for (const path of ['/v1/sys/health', '/uix', '/favicon.ico']) {
      assert.equal((await fetch(`${base}${path}`)).status, 418, path);
    }
  });

  it('serves hashed assets for a year, index.html for every screen path (revalidated), both under the CSP', async () => {
    const asset = await fetch(`${base}/ui/assets/index-abc.js`);
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(asset.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(await asset.text(), 'console.log(1)');
    assert.equal(
      (await fetch(`${base}/ui/assets/index-abc.css`)).headers.get('content-type'),
      'text/css; charset=utf-8',
    );
    for (const path of ['/ui/', '/ui/secrets/secret/kv/a/', '/ui/policies/default']) {
      const res = await fetch(`${base}${path}`);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      assert.equal(res.headers.get('content-security-policy'), UI_CONTENT_SECURITY_POLICY);
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.match(await res.text(), /^<!doctype html>/);
    }
    assert.equal(asset.headers.get('content-security-policy'), UI_CONTENT_SECURITY_POLICY);
  });

  it('does not serve source maps, answers a missing asset 404 (not the page), and takes only GET and HEAD', async () => {
    assert.equal((await fetch(`${base}/ui/assets/index-abc.js.map`)).status, 404);
    const gone = await fetch(`${base}/ui/assets/index-old.js`);
    assert.equal(gone.status, 404);
    assert.doesNotMatch(await gone.text(), /doctype/);
    const head = await fetch(`${base}/ui/assets/index-abc.js`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String('console.log(1)'.length));
    const post = await fetch(`${base}/ui/`, { method: 'POST', body: 'x' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
  });

  it('takes an OIDC provider’s form_post answer at the landing page and hands it to the page in a meta element', async () => {
    const callback = `${base}/ui/vault/auth/team%2Foidc/oidc/callback`;
    const form = new URLSearchParams({ state: 'st_1', code: 'a"<b>&c', extra: 'dropped', id_token: 'x.y.z' });
    const res = await fetch(callback, { method: 'POST', body: form });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    // The page holds a one-time code: never cached, and under the same policy (no inline script).
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('content-security-policy'), UI_CONTENT_SECURITY_POLICY);
    const html = await res.text();
    assert.match(html, /^<!doctype html>/);
    const meta = /<meta name="ward-oidc-response" content="([^"]*)">/.exec(html);
    assert.ok(meta, html);
    assert.equal(meta[1], 'code=a%22%3Cb%3E%26c&amp;state=st_1&amp;id_token=x.y.z');
    const answer = new URLSearchParams((meta[1] ?? '').replaceAll('&amp;', '&'));
    assert.deepEqual(Object.fromEntries(answer), { code: 'a"<b>&c', state: 'st_1', id_token: 'x.y.z' });
    assert.ok(html.indexOf('<meta name="ward-oidc-response"') < html.indexOf('<script'));
  });

  it('refuses a POST elsewhere (405), one that is not a form (415) and one too large (413)', async () => {
    for (const path of ['/ui/vault/auth/oidc/oidc/callback/more', '/ui/secrets', '/ui/vault/auth/oidc/callback']) {
      const res = await fetch(`${base}${path}`, { method: 'POST', body: new URLSearchParams({ code: 'c' }) });
      assert.equal(res.status, 405, path);
    }
    const callback = `${base}/ui/vault/auth/oidc/oidc/callback`;
    const json = await fetch(callback, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"code":"c"}',
    });
    assert.equal(json.status, 415);
    const big = await fetch(callback, { method: 'POST', body: new URLSearchParams({ code: 'c'.repeat(70_000) }) });
    assert.equal(big.status, 413);
  });

  it('finds nothing to serve where the UI was not built', async () => {
    assert.equal(await loadUiAssets(join(dir, 'missing')), undefined);
  });

  it('is not served by a server whose configuration does not say ui = true', async () => {
    const t = await startTestServer();
    try {
      for (const path of ['/ui/', '/']) {
        const res = await fetch(`${t.url}${path}`, { redirect: 'manual' });
        assert.equal(res.status, 404, path);
        assert.deepEqual(await res.json(), { errors: [] });
      }
    } finally {
      await t.stop();
    }
  });
});
