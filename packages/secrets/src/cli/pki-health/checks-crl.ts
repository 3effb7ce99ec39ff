import { X509Crl } from '@peculiar/x509';
import type { Check } from './check.js';
import { type Finding, finding, type MountReader } from './result.js';

const day = (d: Date) => d.toISOString().slice(0, 10);

/** `config/crl`'s `disabled` and `auto_rebuild`, which soften the CRL and no_store findings. */
async function crlConfig(reader: MountReader) {
  const config = await reader.read('config/crl');
  return {
    disabled: config?.disabled === true,
    autoRebuild: config?.auto_rebuild === true,
    hasDelta: config?.enable_delta === true,
  };
}

function parseCrl(pem: unknown): X509Crl | undefined {
  if (typeof pem !== 'string' || pem === '') return undefined;
  try {
    return new X509Crl(pem);
  } catch {
    return undefined;
  }
}

/**
 * Each issuer's CRL (and delta CRL, when enabled): critical once the share of its validity (this update to next
 * update) already used reaches the threshold (95%), informational instead while CRLs are disabled.
 */
export const crlValidityPeriod: Check = {
  name: 'crl_validity_period',
  defaults: { crl_expiry_pct_critical: '95', delta_crl_expiry_pct_critical: '95' },
  async run(reader, config, nowMs) {
    const { disabled, hasDelta } = await crlConfig(reader);
    const results: Finding[] = [];
    for (const id of await reader.list('issuers')) {
      const crls = [[`issuer/${id}/crl`, 'CRL', 'crl_expiry_pct_critical']] as const;
      const deltas = [[`issuer/${id}/crl/delta`, 'Delta CRL', 'delta_crl_expiry_pct_critical']] as const;
      // A delta CRL is asked for only where config/crl enables them: the server refuses the read otherwise.
      for (const [path, what, key] of [...crls, ...(hasDelta ? deltas : [])]) {
        const crl = parseCrl((await reader.read(path))?.crl);
        if (!crl?.nextUpdate) continue;
        const from = crl.thisUpdate.getTime();
        const total = crl.nextUpdate.getTime() - from;
        const pct = Number(config[key]);
        const endpoint = `/${reader.mount}/${path}`;
        if (nowMs - from < (total * pct) / 100) {
          results.push(
            finding('ok', endpoint, `${what} valid from ${day(crl.thisUpdate)} to ${day(crl.nextUpdate)}: OK.`),
          );
          continue;
        }
        const message = `${what} has used ${pct}% of its validity (next update ${day(crl.nextUpdate)}): rebuild it and hand it out before it goes stale.`;
        results.push(
          disabled
            ? finding('informational', endpoint, `${message} CRLs are disabled, so this matters less.`)
            : finding('critical', endpoint, message),
        );
      }
    }
    return results;
  },
};

/** Roles that store their certificates (no_store=false): a warning, informational when the CRL rebuilds itself. */
export const roleNoStoreFalse: Check = {
  name: 'role_no_store_false',
  defaults: { allowed_roles: [] },
  async run(reader, config) {
    const allowed = new Set(Array.isArray(config.allowed_roles) ? config.allowed_roles.map(String) : []);
    const names = await reader.list('roles');
    const { autoRebuild } = await crlConfig(reader);
    const results: Finding[] = [];
    for (const name of names) {
      const role = await reader.read(`roles/${name}`);
      if (!role || role.no_store === true || allowed.has(name)) continue;
      results.push(
        finding(
          autoRebuild ? 'informational' : 'warning',
          `/${reader.mount}/roles/${name}`,
          'Role stores every certificate it issues (no_store=false): with many short-lived certificates the store and tidy grow; set no_store=true unless they must be listed or revoked by serial.',
        ),
      );
    }
    if (results.length === 0 && names.length > 0) {
      results.push(finding('ok', `/${reader.mount}/roles`, 'No role stores the certificates it issues.'));
    }
    return results;
  },
};
