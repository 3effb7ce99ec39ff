import type { Clock, Random } from '@ward/base';
import { type Backend, type BackendContext, createBackend, KeyedMutex } from '../../framework/index.js';
import { pathCerts } from './path-certs.js';
import { certificateSecretType, pathIssue } from './path-issue.js';
import { pathRoles } from './path-roles.js';
import { pathCaPem, pathGenerateRoot, pathRoot } from './path-root.js';
import { pathConfigUrls } from './path-urls.js';

/** What the PKI paths share. */
export interface PkiDeps {
  clock: Clock;
  random: Random;
  /** Serialises changes of the CA, of one role, of one certificate. */
  locks: KeyedMutex;
  defaultTtlSeconds(): number;
  maxTtlSeconds(): number;
}

const HELP =
  'The PKI engine (a subset) is a certificate authority: one self-signed root CA per mount (RSA), ' +
  'roles that say which names a certificate may carry and for how long, and issue/:role, which ' +
  'answers a new key and its certificate, under a lease when the role says generate_lease.';

/** Factory of the `pki` engine. */
export function createPkiBackend(ctx: BackendContext): Backend {
  const d: PkiDeps = {
    clock: ctx.clock,
    random: ctx.random,
    locks: new KeyedMutex(),
    defaultTtlSeconds: () => ctx.system.defaultLeaseTtlSeconds(),
    maxTtlSeconds: () => ctx.system.maxLeaseTtlSeconds(),
  };
  return createBackend({
    type: 'pki',
    storage: ctx.storage,
    help: HELP,
    secrets: [certificateSecretType(d)],
    paths: [
      pathGenerateRoot(d),
      pathRoot(d),
      pathCaPem(),
      pathConfigUrls(),
      ...pathRoles(d),
      pathIssue(d),
      ...pathCerts(d),
    ],
    specialPaths: { unauthenticated: ['cert/*', 'ca/pem'] },
  });
}
