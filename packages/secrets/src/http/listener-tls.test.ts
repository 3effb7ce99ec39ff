import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect } from 'node:tls';
import { createListener } from './listener.js';
import { echoHandler, echoOf, RawClient, sendJson } from './raw-http.testing.js';

/** A throwaway self-signed certificate for localhost and 127.0.0.1 (Node cannot make X.509 itself). */
function selfSignedCertificate(commonName = 'localhost'): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ward-tls-'));
  try {
    const certFile = join(dir, 'cert.pem');
    const keyFile = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1']
        .concat(['-keyout', keyFile, '-out', certFile, '-subj', `/CN=${commonName}`])
        .concat(['-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1']),
      { stdio: 'ignore' },
    );
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('listener over TLS', () => {
  const certificate = selfSignedCertificate();
  const listener = createListener({ address: '127.0.0.1:0', tls: certificate, handler: echoHandler });
  let port = 0;
  let url = '';

  before(async () => {
    ({ port, url } = await listener.listen());
  });
  after(() => listener.close({ graceMs: 0 }));

  it('reports an https URL', () => {
    assert.equal(url, `https://127.0.0.1:${port}`);
  });

  it('serves LIST, keep-alive and pipelined, with chunked bodies, on the decrypted stream', async () => {
    const client = await RawClient.connect(port, { ca: certificate.cert });
    await client.write('LIST /v1/a/ HTTP/1.1\r\nHost: ward\r\n\r\n');
    const first = echoOf(await client.readResponse());
    assert.deepEqual([first.method, first.url, first.encrypted], ['LIST', '/v1/a/', true]);

    await client.write(
      'LIST /v1/b/ HTTP/1.1\r\nHost: ward\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nLIST\r\n0\r\nT: 1\r\n\r\n' +
        'GET /v1/c HTTP/1.1\r\nHost: ward\r\nContent-Length: 5\r\n\r\nLIST ' +
        'LIST /v1/d/ HTTP/1.1\r\nHost: ward\r\n\r\n',
    );
    const echoes = [];
    for (let i = 0; i < 3; i++) echoes.push(echoOf(await client.readResponse()));
    assert.deepEqual(
      echoes.map((e) => [e.method, e.url, e.body]),
      [
        ['LIST', '/v1/b/', 'LIST'],
        ['GET', '/v1/c', 'LIST '],
        ['LIST', '/v1/d/', ''],
      ],
    );
    assert.deepEqual(echoes[0]?.trailers, { t: '1' });
    client.close();
  });

  it('lets the handler see a client certificate checked against the listener CA', async () => {
    const clientCertificate = selfSignedCertificate('ward-client');
    const withCa = createListener({
      address: '127.0.0.1:0',
      tls: { ...certificate, ca: clientCertificate.cert },
      handler: (req, res) => {
        const socket = req.socket as unknown as { authorized: boolean; getPeerCertificate(): { subject?: object } };
        const subject = socket.getPeerCertificate().subject as { CN?: string } | undefined;
        sendJson(res, 200, { method: req.method, authorized: socket.authorized, cn: subject?.CN ?? null });
      },
    });
    const { port: caPort } = await withCa.listen();
    try {
      const answers = [];
      for (const presented of [clientCertificate, undefined]) {
        const client = await RawClient.connect(caPort, { ca: certificate.cert, ...presented });
        await client.write('LIST /v1/auth/cert/ HTTP/1.1\r\nHost: ward\r\n\r\n');
        answers.push(JSON.parse((await client.readResponse()).body.toString()));
        client.close();
      }
      assert.deepEqual(answers, [
        { method: 'LIST', authorized: true, cn: 'ward-client' },
        { method: 'LIST', authorized: false, cn: null },
      ]);
    } finally {
      await withCa.close({ graceMs: 0 });
    }
  });

  it('rewrites a LIST that arrives one byte per TLS record', async () => {
    const client = await RawClient.connect(port, { ca: certificate.cert });
    await client.writeByteByByte('LIST /v1/e/ HTTP/1.1\r\nHost: ward\r\n\r\n');
    assert.equal(echoOf(await client.readResponse()).method, 'LIST');
    client.close();
  });

  it('answers a client that half-closes after its request, once the handshake is done', async () => {
    const socket = connect({ host: '127.0.0.1', port, ca: certificate.cert, servername: 'localhost' });
    await once(socket, 'secureConnect');
    socket.end('GET /v1/half HTTP/1.1\r\nHost: ward\r\n\r\n');
    const chunks: Buffer[] = [];
    for await (const chunk of socket) chunks.push(chunk as Buffer);
    assert.match(Buffer.concat(chunks).toString(), /^HTTP\/1\.1 200 [\s\S]*"url":"\/v1\/half"/);
  });
});
