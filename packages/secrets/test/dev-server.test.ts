import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startWard, type WardProcess } from './ward-process.js';

const exec = promisify(execFile);

function httpsGet(url: string, options: { ca?: Buffer; rejectUnauthorized?: boolean }) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpsRequest(url, { method: 'GET', ...options }, (res) => {
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('ward server -dev', () => {
  const running: WardProcess[] = [];
  after(() => {
    for (const w of running) w.child.kill('SIGKILL');
  });

  it('starts unsealed with the chosen root token and answers curl -X LIST on secret/metadata/', async () => {
    const ward = startWard(['server', '-dev', '-dev-root-token-id=root', '-dev-listen-address=127.0.0.1:0']);
    running.push(ward);
    const [, url] = await ward.waitFor(/export VAULT_ADDR='(http:\/\/[^']+)'/);
    await ward.waitFor(/Root Token: root/);
    assert.match(ward.output(), /Unseal Key: [A-Za-z0-9+/]{43}=/);
    await exec('curl', [
      '-sf',
      '-X',
      'POST',
      '-H',
      'X-Vault-Token: root',
      '-d',
      '{"data":{"k":"v"}}',
      `${url}/v1/secret/data/app`,
    ]);
    const { stdout } = await exec('curl', [
      '-s',
      '-X',
      'LIST',
      '-H',
      'X-Vault-Token: root',
      `${url}/v1/secret/metadata/`,
    ]);
    assert.deepEqual(JSON.parse(stdout).data, { keys: ['app'] });

    ward.child.kill('SIGTERM');
    assert.equal(await ward.exited, 0, 'SIGTERM shuts down cleanly');
  });

  it('-dev-tls serves HTTPS with a generated CA that clients verify, and removes its files on exit', async () => {
    const ward = startWard(['server', '-dev-tls', '-dev-root-token-id=root', '-dev-listen-address=127.0.0.1:0']);
    running.push(ward);
    const [, url] = await ward.waitFor(/export VAULT_ADDR='(https:\/\/[^']+)'/);
    const [, caFile] = await ward.waitFor(/export VAULT_CACERT='([^']+)'/);
    const ca = readFileSync(caFile as string);

    const verified = await httpsGet(`${url}/v1/sys/health`, { ca });
    assert.equal(verified.status, 200);
    assert.equal(JSON.parse(verified.body).sealed, false);
    await assert.rejects(httpsGet(`${url}/v1/sys/health`, {}), /self[- ]signed|unable to verify|certificate/i);
    const unverified = await httpsGet(`${url}/v1/sys/health`, { rejectUnauthorized: false });
    assert.equal(unverified.status, 200);

    ward.child.kill('SIGINT');
    assert.equal(await ward.exited, 0);
    assert.equal(existsSync(caFile as string), false, 'the CA file is deleted on exit');
  });

  it('refuses to start without -dev or -config', async () => {
    const ward = startWard(['server']);
    // A usage error: exit 2 in all three binaries (issue 21 point 12).
    assert.equal(await ward.exited, 2);
    assert.match(ward.output(), /either -dev or -config=FILE is required/);
  });

  it('reports a configuration error clearly', async () => {
    const ward = startWard(['server', '-config=/nonexistent/ward.hcl']);
    assert.notEqual(await ward.exited, 0);
    assert.match(ward.output(), /Error: .*nonexistent/);
  });
});
