import { readFile, statfs } from 'node:fs/promises';
import { hostname, machine, networkInterfaces, type as osType, release, version } from 'node:os';

export interface HostData {
  OS: string;
  Network: Array<Record<string, string>>;
  ResolvConf: string;
  Hosts: string;
  Environment: Record<string, string>;
  Disk: Record<string, { DiskMB: number; UsedMB: number }>;
}

/** Variables whose values never leave the host, matched exactly (the established deny list). */
const DENY_LIST = new Set([
  'CONSUL_TOKEN',
  'CONSUL_HTTP_TOKEN',
  'CONSUL_HTTP_TOKEN_FILE',
  'NOMAD_TOKEN',
  'VAULT_TOKEN',
  'CONSUL_LICENSE',
  'NOMAD_LICENSE',
  'VAULT_LICENSE',
  'CONSUL_LICENSE_PATH',
  'NOMAD_LICENSE_PATH',
  'VAULT_LICENSE_PATH',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_METADATA_URL',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'GOOGLE_OAUTH_ACCESS_TOKEN',
  'WARD_TOKEN',
  'CLUSTER_TOKEN',
]);

/**
 * Name fragments that mark a variable as sensitive. The established agent stops at TOKEN
 * and SECRET; Ward also hides the usual spellings of passwords and keys, since a
 * `DB_PASSWORD` in a debug archive is a leak whatever the reference does.
 */
const SENSITIVE_FRAGMENTS = ['TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'CREDENTIAL', 'PRIVATE_KEY', 'API_KEY'];

/**
 * The environment with known-sensitive values replaced by `<redacted>`: the deny list,
 * plus any name containing one of `SENSITIVE_FRAGMENTS`. Other sensitive values (under
 * names without those words) pass through, as the API documents.
 */
export function redactEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    const upper = k.toUpperCase();
    out[k] = DENY_LIST.has(k) || SENSITIVE_FRAGMENTS.some((f) => upper.includes(f)) ? '<redacted>' : v;
  }
  return out;
}

/** A snapshot of this host for `/v1/agent/host`. */
export async function collectHostData(env: NodeJS.ProcessEnv = process.env): Promise<HostData> {
  return {
    OS: [machine(), hostname(), release(), osType(), version()].join(' '),
    Network: network(),
    ResolvConf: await readOrError('/etc/resolv.conf'),
    Hosts: await readOrError('/etc/hosts'),
    Environment: redactEnvironment(env),
    Disk: await disks(),
  };
}

function network(): Array<Record<string, string>> {
  const out: Array<Record<string, string>> = [];
  for (const [name, addrs] of Object.entries(networkInterfaces())) {
    for (const a of addrs ?? []) {
      const bits = a.cidr ? (a.cidr.split('/')[1] ?? '') : '';
      out.push({
        interface: name,
        address: a.address,
        type: a.family,
        netmask: a.netmask,
        mask_bits: bits,
        string: a.cidr ?? a.address,
        mac: a.mac,
        internal: String(a.internal),
      });
    }
  }
  return out;
}

async function readOrError(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    return (err as Error).message;
  }
}

/** Usage per mount point in MiB (total and total − free); unreadable mounts are skipped. */
async function disks(): Promise<Record<string, { DiskMB: number; UsedMB: number }>> {
  const out: Record<string, { DiskMB: number; UsedMB: number }> = {};
  let mounts: string[];
  try {
    mounts = (await readFile('/proc/mounts', 'utf8'))
      .split('\n')
      .map((l) => l.split(' ')[1] ?? '')
      .filter(Boolean);
  } catch {
    mounts = ['/'];
  }
  for (const mount of new Set(mounts)) {
    try {
      const s = await statfs(mount.replace(/\\040/g, ' '));
      if (s.blocks === 0) continue;
      const mb = (blocks: number) => Math.floor((blocks * s.bsize) / (1024 * 1024));
      out[mount] = { DiskMB: mb(s.blocks), UsedMB: mb(s.blocks - s.bfree) };
    } catch {
      // Permission denied or a vanished mount: skipped, as documented.
    }
  }
  return out;
}
