import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import { renewalUnder } from '../common/index.js';
import { certStore } from './cert-store.js';
import { OcspCache } from './ocsp-cache.js';
import { pathCerts } from './path-certs.js';
import { pathConfig } from './path-config.js';
import { pathCrls } from './path-crls.js';
import { pathLogin } from './path-login.js';

const HELP =
  'The cert auth method logs clients in with the TLS client certificate of their connection, checked against ' +
  'trusted certificates (`certs/`) and CRLs (`crls/`).';

/** Factory of the `cert` auth method. */
export function createCertBackend(ctx: BackendContext): Backend {
  // OCSP answers are kept per mount in this server's memory, as established.
  const ocspCache = new OcspCache();
  return createBackend({
    type: 'cert',
    storage: ctx.storage,
    help: HELP,
    paths: [
      pathConfig(ocspCache),
      ...pathCerts(),
      ...pathCrls(),
      pathLogin({ clock: ctx.clock, random: ctx.random, ocspCache }),
    ],
    specialPaths: { unauthenticated: ['login'] },
    // Renewal re-reads the trusted entry: current TTLs apply, a changed policy set or a removed entry stops renewal.
    async renewLogin({ metadata, policies }) {
      const entry = metadata.cert_name ? await certStore.cert(ctx.storage, metadata.cert_name) : undefined;
      if (!entry) return null;
      return renewalUnder(entry.token, policies);
    },
  });
}
