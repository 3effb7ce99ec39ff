import type { Client } from '@ward/secrets-client';
import { CliError, type CommandContext } from './command.js';
import { UsageError } from './flags.js';
import { readCertificate } from './pki-verify.js';

/** Where `pki issue` stands when a step fails, for the message that says what exists and what to do. */
interface Progress {
  childMount: string;
  parentIssuer: string;
  keyId: string;
  csr: string;
  serial: string;
  issuerId: string;
}

/**
 * `ward pki issue PARENT CHILD_MOUNT K=V…`, as established: a CSR (and key) made on CHILD_MOUNT
 * (`intermediate/generate/TYPE`), signed by PARENT (`…/sign-intermediate`, the same K=V pairs),
 * the certificate imported into CHILD_MOUNT (named `issuerName`), then the parent certificate
 * (named as PARENT's reference unless `default`) and the rest of the chain; the new issuer is
 * printed. A step that fails says what was made before it and how to go on or back.
 */
export async function pkiIssue(
  ctx: CommandContext,
  parentIssuer: string,
  childMount: string,
  keySource: string,
  issuerName: string,
  data: Record<string, unknown>,
): Promise<void> {
  const { client } = ctx;
  if (!parentIssuer.includes('/issuer/')) {
    throw new UsageError(`the parent ${parentIssuer} is not an issuer path (MOUNT/issuer/REF)`);
  }
  await readCertificate(client, parentIssuer);
  const p: Progress = { childMount, parentIssuer, keyId: '', csr: '', serial: '', issuerId: '' };
  const generated = await client.write(`${childMount}/intermediate/generate/${keySource}`, data);
  const csr = generated?.data?.csr;
  if (typeof csr !== 'string' || csr === '') throw new CliError(`${childMount} made no CSR: is it a pki mount?`, 2);
  p.csr = csr;
  p.keyId = String(generated?.data?.key_id ?? '');
  const signed = await step(p, 'signing the CSR', () =>
    client.write(`${parentIssuer}/sign-intermediate`, { ...data, csr }),
  );
  p.serial = String(signed?.data?.serial_number ?? '');
  const chain = Array.isArray(signed?.data?.ca_chain) ? (signed.data.ca_chain as string[]) : [];
  p.issuerId = await step(p, 'importing the certificate', () =>
    importIssuer(client, childMount, String(signed?.data?.certificate ?? ''), issuerName),
  );
  const parentRef = parentIssuer.split('/').pop() ?? '';
  await step(p, 'importing the parent certificate', () =>
    importIssuer(client, childMount, String(signed?.data?.issuing_ca ?? ''), parentRef),
  );
  // The certificate and its parent are in; a longer chain brings the issuers above them too.
  if (chain.length > 2) {
    await step(p, 'importing the chain', () =>
      client.write(`${childMount}/issuers/import/cert`, { pem_bundle: chain.join('\n') }),
    );
  }
  const issuer = await client.read(`${childMount}/issuer/${p.issuerId}`);
  if (issuer) ctx.out.secret(issuer);
}

async function importIssuer(client: Client, mount: string, pem: string, name: string): Promise<string> {
  const imported = await client.write(`${mount}/issuers/import/cert`, { pem_bundle: pem });
  const ids = Object.keys((imported?.data?.mapping as Record<string, unknown> | undefined) ?? {});
  if (ids.length !== 1) throw new CliError(`expected one issuer from the import into ${mount}, got ${ids.length}`, 2);
  const [id = ''] = ids;
  if (name !== '' && name !== 'default') await client.write(`${mount}/issuer/${id}`, { issuer_name: name });
  return id;
}

async function step<T>(p: Progress, what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    throw new CliError(`${what} failed: ${(err as Error).message}\n\n${afterFailure(p)}`, 2);
  }
}

/** What exists after a failed step, and the commands that go on from there or undo it. */
function afterFailure(p: Progress): string {
  const parentMount = p.parentIssuer.split('/issuer/')[0] ?? '';
  const lines = [`A CSR was made on ${p.childMount}${p.keyId ? ` with the new key ${p.keyId}` : ''}.`];
  if (!p.serial) {
    lines.push(
      `To go on: save the CSR below as pki_int.csr and run \`ward write ${p.parentIssuer}/sign-intermediate csr=@pki_int.csr …\`.`,
      p.csr.trim(),
    );
  } else {
    lines.push(
      `${parentMount} signed it (serial ${p.serial}); revoke it with \`ward write ${parentMount}/revoke serial_number=${p.serial}\` if unwanted.`,
    );
  }
  if (p.issuerId) lines.push(`The certificate is issuer ${p.issuerId} of ${p.childMount}.`);
  else if (p.serial)
    lines.push(
      `To go on: import the certificate with \`ward write ${p.childMount}/issuers/import/cert pem_bundle=@chain.pem\`.`,
    );
  if (p.keyId && !p.issuerId) lines.push(`To undo: \`ward delete ${p.childMount}/key/${p.keyId}\`.`);
  return lines.join('\n');
}
