/** The `pki` engine: issuers (root and intermediate CAs), roles, certificates, CRLs, an OCSP responder and an ACME server. @module */

import { type Backend, type BackendContext, createBackend, KeyedMutex } from '../../framework/index.js';
import { ValidationQueue } from './acme/acme-validation.js';
import { pathEab } from './acme/eab.js';
import { NonceStore } from './acme/jws.js';
import { ACME_UNAUTHENTICATED_PATHS, pathAcme } from './acme/path-acme.js';
import { pathAcmeConfig } from './acme/path-acme-config.js';
import { pathAcmeMgmt } from './acme/path-acme-mgmt.js';
import type { PkiDeps } from './deps.js';
import { pathCrl } from './path-crl.js';
import { pathFetch, UNAUTHENTICATED_PATHS } from './path-fetch.js';
import { pathImport } from './path-import.js';
import { certificateSecretType, pathIssue } from './path-issue.js';
import { pathIssuers } from './path-issuers.js';
import { pathKeys } from './path-keys.js';
import { pathOcsp } from './path-ocsp.js';
import { pathRevoke } from './path-revoke.js';
import { pathRoles } from './path-roles.js';
import { pathDeleteRoot, pathGenerateIntermediate, pathGenerateRoot } from './path-root.js';
import { pathSignIssuers } from './path-sign-issuers.js';
import { autoTidyTask, pathTidy, TidyState } from './path-tidy.js';
import { pathConfigUrls } from './path-urls.js';

const HELP =
  'The PKI engine is a certificate authority: root and intermediate CAs (RSA, EC, Ed25519) as issuers of ' +
  'the mount, with their keys; roles that say which names a certificate may carry and for how long; ' +
  'issue, sign and sign-verbatim; revocation with CRLs (full and delta) readable without a token; and an ' +
  'ACME server (RFC 8555: http-01, dns-01, tls-alpn-01) with a directory per role and per issuer.';

/** What a test may change in the engine; no user configuration reaches these. */
export interface PkiOptions {
  /** The port tls-alpn-01 validations connect to (default 443, as RFC 8737 fixes). */
  acmeTlsAlpnPort?: number;
}

/** Factory of the `pki` engine. */
export function createPkiBackend(ctx: BackendContext, options: PkiOptions = {}): Backend {
  const d: PkiDeps = {
    clock: ctx.clock,
    random: ctx.random,
    locks: new KeyedMutex(),
    defaultTtlSeconds: () => ctx.system.defaultLeaseTtlSeconds(),
    maxTtlSeconds: () => ctx.system.maxLeaseTtlSeconds(),
    managedKey: ctx.system.managedKey?.bind(ctx.system),
    acmeTlsAlpnPort: options.acmeTlsAlpnPort ?? 443,
  };
  const tidyState = new TidyState();
  const acmeValidations = new ValidationQueue();
  return createBackend({
    type: 'pki',
    storage: ctx.storage,
    help: HELP,
    secrets: [certificateSecretType(d)],
    paths: [
      ...pathGenerateRoot(d),
      ...pathGenerateIntermediate(d),
      pathDeleteRoot(d),
      ...pathSignIssuers(d),
      ...pathImport(d),
      ...pathIssuers(d),
      ...pathKeys(d),
      pathConfigUrls(),
      ...pathCrl(d),
      ...pathRoles(d),
      ...pathIssue(d),
      ...pathRevoke(d),
      ...pathFetch(d),
      ...pathTidy(d, tidyState),
      ...pathOcsp(d),
      ...pathAcme(d, new NonceStore(ctx.clock, ctx.random), acmeValidations),
      ...pathAcmeConfig(),
      ...pathEab(d),
      ...pathAcmeMgmt(d),
    ],
    specialPaths: { unauthenticated: [...UNAUTHENTICATED_PATHS, ...ACME_UNAUTHENTICATED_PATHS] },
    periodic: [autoTidyTask(d, ctx.storage, tidyState), acmeValidations.task(d, ctx.storage)],
  });
}
