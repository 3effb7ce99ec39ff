import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { best, type Figures, measure, ROUNDS, report, startWardDev, startWardProxy } from './bench-support.js';

/**
 * KV v2 reads through `ward proxy` (auto-auth token added by the proxy, lease cache on) as a ratio
 * to the same reads sent to the server directly, in the same run (issue 22, goal ≥ 0.5). The CPU
 * column of the proxy row is the server's and the proxy's together, per request.
 */
async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'ward-proxy-bench-'));
  const server = await startWardDev();
  let proxy: Awaited<ReturnType<typeof startWardProxy>> | undefined;
  try {
    const headers = { 'X-Vault-Token': 'root', 'Content-Type': 'application/json' };
    const secret = JSON.stringify({ data: { password: 'correct horse battery staple' } });
    await fetch(`${server.url}/v1/secret/data/bench/read`, { method: 'POST', headers, body: secret });
    await writeFile(join(dir, 'token'), 'root');
    await writeFile(
      join(dir, 'proxy.hcl'),
      `vault { address = "${server.url}" }
listener "tcp" {
  address = "127.0.0.1:0"
  tls_disable = true
}
api_proxy { use_auto_auth_token = true }
auto_auth {
  method "token_file" { config = { token_file_path = "${join(dir, 'token')}" } }
}
cache {}
`,
    );
    proxy = await startWardProxy(join(dir, 'proxy.hcl'));
    const viaProxy = `${proxy.url}/v1/secret/data/bench/read`;
    // The first request waits for the proxy's login; the measured ones should not.
    await fetch(viaProxy);

    const rounds: Record<'direct' | 'proxied', Figures[]> = { direct: [], proxied: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.direct.push(
        await measure('KV v2 read, direct', server, { url: `${server.url}/v1/secret/data/bench/read`, headers }),
      );
      rounds.proxied.push(await measure('KV v2 read through ward proxy', [server, proxy], { url: viaProxy }));
    }
    report('secrets proxy bench (ratio to direct reads)', best(rounds.direct), [best(rounds.proxied)], {
      'KV v2 read through ward proxy': 0.5,
    });
  } finally {
    await proxy?.stop();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
