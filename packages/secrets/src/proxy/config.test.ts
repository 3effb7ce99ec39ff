import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { InvalidRequestError } from '../logical/errors.js';
import { loadProxyConfig } from './config.js';

describe('proxy configuration (HCL, established layout)', () => {
  let dir: string;
  let n = 0;
  const load = async (text: string) => {
    const file = join(dir, `proxy-${n++}.hcl`);
    await writeFile(file, text);
    return loadProxyConfig(file);
  };
  const refused = async (text: string) => assert.rejects(load(text), InvalidRequestError);
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-proxy-config-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('reads every stanza of the example in docs/proxy.md', async () => {
    const page = await readFile(new URL('../../../../../docs/proxy.md', import.meta.url), 'utf8');
    const example = /^```hcl\n([\s\S]*?)^```$/m.exec(page)?.[1];
    assert.ok(example, 'docs/proxy.md shows a proxy configuration');
    const config = await load(example);
    assert.deepEqual(config.upstream, {
      address: 'https://127.0.0.1:8200',
      caCert: '/etc/ward/ca.pem',
      tlsSkipVerify: false,
    });
    assert.equal(config.pidFile, '/run/ward-proxy.pid');
    assert.deepEqual(
      config.listeners.map((l) => [l.type, l.address, l.requireRequestHeader, l.isQuitEnabled, l.tlsDisable]),
      [
        ['tcp', '127.0.0.1:8100', true, true, true],
        ['unix', '/run/ward-proxy.sock', false, false, true],
      ],
    );
    assert.equal(config.useAutoAuthToken, 'force');
    assert.deepEqual(config.autoAuth, {
      method: {
        type: 'userpass',
        mountPath: 'auth/people',
        username: 'app',
        passwordFilePath: '/etc/ward/app-password',
      },
      sinks: [
        { path: '/run/ward-token', mode: 0o600 },
        { path: '/run/ward-token-2', mode: 0o640 },
      ],
    });
    assert.equal(config.isCacheEnabled, true);
    assert.equal(config.exitAfterAuth, false);
  });

  it('takes the method as a typed block too, and server { } for vault { }', async () => {
    const config = await load(`
server { address = "http://127.0.0.1:8200" }
exit_after_auth = true
auto_auth {
  method {
    type = "token_file"
    config { token_file_path = "/home/app/.vault-token" }
  }
  sink { 
    type = "file"
    config = { path = "/tmp/t", mode = "0440" }
  }
}
`);
    assert.deepEqual(config.autoAuth?.method, { type: 'token_file', tokenFilePath: '/home/app/.vault-token' });
    assert.equal(config.autoAuth?.sinks[0]?.mode, 0o440);
    assert.equal(config.exitAfterAuth, true);
    assert.equal(config.listeners.length, 0, 'exit_after_auth needs no listener');
    assert.equal(config.useAutoAuthToken, false);
    assert.equal(config.isCacheEnabled, false);
  });

  it('refuses an unknown key by file, line and the nearest known key, in every block', async () => {
    const vault = 'vault { address = "http://127.0.0.1:8200" }\n';
    const listener = 'listener "tcp" {\n address = "127.0.0.1:0"\n tls_disable = true\n}\n';
    await assert.rejects(
      load(`${vault}${listener}api_proxy {\n  use_auto_auth_tokens = true\n}\n`),
      (err: Error) =>
        err instanceof InvalidRequestError && /\.hcl:7: .*did you mean "use_auto_auth_token"/.test(err.message),
    );
    await refused(`${vault}${listener}cache { persist = true }\n`);
    await refused(`vault {\n address = "http://x:1"\n tls_skip_verfy = true\n}\n${listener}`);
    await refused(
      `${vault}listener "tcp" {\n address = "127.0.0.1:0"\n tls_disable = true\n proxy_api { enable_quitt = true }\n}\n`,
    );
    await refused(
      `${vault}${listener}auto_auth {\n method "userpass" { config = { username = "a", password_file = "/p" } }\n}\n`,
    );
    await refused(
      `${vault}${listener}auto_auth {\n method "token_file" { config = { token_file_path = "/t" } }\n sink "file" { config = { path = "/t", perms = 1 } }\n}\n`,
    );
  });

  it('refuses what it cannot run', async () => {
    const vault = 'vault { address = "http://127.0.0.1:8200" }\n';
    const listener = 'listener "tcp" {\n address = "127.0.0.1:0"\n tls_disable = true\n}\n';
    await refused(listener); // no vault block
    await refused(`vault { address = "ftp://x" }\n${listener}`);
    await refused(vault); // no listener
    await refused(`${vault}${listener}api_proxy { use_auto_auth_token = true }\n`); // no auto_auth
    await refused(`${vault}${listener}api_proxy { use_auto_auth_token = "sometimes" }\n`);
    const tokenFile = 'auto_auth {\n method "token_file" { config = { token_file_path = "/t" } }\n}\n';
    const useToken = async (word: string) =>
      (await load(`${vault}${listener}${tokenFile}api_proxy { use_auto_auth_token = "${word}" }\n`)).useAutoAuthToken;
    assert.deepEqual([await useToken('T'), await useToken('0'), await useToken('Force')], [true, false, 'force']);
    await refused(`${vault}${listener}${tokenFile}api_proxy { use_auto_auth_token = "yes" }\n`);
    await refused(`${vault}listener "tcp" { address = "127.0.0.1:0" }\n`); // TLS without a certificate
    await refused(`${vault}listener "udp" { address = "x" }\n`);
    await refused(`${vault}exit_after_auth = true\n`); // nothing to authenticate with
    const auth = (method: string, sink = '') => `${vault}${listener}auto_auth {\n${method}\n${sink}\n}\n`;
    await refused(auth('method "approle" { config = { role_id_file_path = "x" } }'));
    await refused(auth('method "userpass" { config = { username = "app" } }'));
    await refused(
      auth(
        'method "token_file" { config = { token_file_path = "/t" } }',
        'sink "file" { config = { path = "/t", mode = 0800 } }',
      ),
    );
    await refused(
      auth(
        'method "token_file" { config = { token_file_path = "/t" } }',
        'sink "file" { config = { path = "/t", mode = 1777 } }',
      ),
    );
    await refused(auth('method "token_file" { config = { token_file_path = "/t" } }', 'sink "file" { config = { } }'));
  });
});
