import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { NotFoundError } from '../../logical/errors.js';
import type { LogicalResponse } from '../../logical/response.js';
import type { Storage } from '../../logical/storage.js';
import type { PkiDeps } from './deps.js';
import { answerOcsp, ocspFailure } from './ocsp.js';
import { pkiStore } from './pki-store.js';

const MAX_REQUEST_BYTES = 64 * 1024;
const answer = (body: Buffer): LogicalResponse => ({
  raw: { status: 200, body, contentType: 'application/ocsp-response' },
});

async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) return undefined;
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** `ocsp` (POST, DER body) and `ocsp/:request` (GET, base64 DER in the URL): RFC 6960, no token needed. */
export function pathOcsp(d: PkiDeps): PathDefinition[] {
  return [...ocspPaths(d, 'ocsp'), ...ocspPaths(d, 'unified-ocsp')];
}

/**
 * The responder under `prefix`; `unified-ocsp` (config/crl unified_crl) answers as the local one,
 * this server being one cluster.
 */
function ocspPaths(d: PkiDeps, prefix: 'ocsp' | 'unified-ocsp'): PathDefinition[] {
  const enabled = async (storage: Storage) => prefix === 'ocsp' || (await pkiStore.crlConfig(storage)).unified_crl;
  return [
    definePath({
      pattern: prefix,
      fields: {},
      operations: {
        update: {
          summary: 'Answer an OCSP request (application/ocsp-request body).',
          handler: async ({ req, storage }) => {
            if (!(await enabled(storage))) throw new NotFoundError('unified CRLs are not enabled');
            const der = req.rawBody ? await readAll(req.rawBody) : undefined;
            // RFC 6960 2.3: a body that is not a DER request is malformedRequest (1).
            if (!der) return answer(ocspFailure(1));
            return answer(await answerOcsp(d, storage, der));
          },
        },
      },
      help: {
        synopsis: 'OCSP responder.',
        description: 'Send the DER request with Content-Type application/ocsp-request.',
      },
    }),
    definePath({
      pattern: `${prefix}/*request`,
      fields: { request: field.path({ description: 'The DER request, base64 (URL-encoded).' }) },
      operations: {
        read: {
          summary: 'Answer an OCSP request given in the URL.',
          handler: async ({ storage, data }) => {
            if (!(await enabled(storage))) throw new NotFoundError('unified CRLs are not enabled');
            const text = decodeURIComponent(data.request);
            if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return answer(ocspFailure(1));
            return answer(await answerOcsp(d, storage, Buffer.from(text, 'base64')));
          },
        },
      },
      help: { synopsis: 'OCSP responder (GET).', description: 'RFC 6960 A.1: base64 of the DER request in the path.' },
    }),
  ];
}
