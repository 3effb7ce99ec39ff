import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from '../src/server/testing.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 28 point 2: the ACL must judge the name the backend acts on. A policy allows everything
// but denies `…/admin`; a request naming `Admin`, `ADMIN` or `%41dmin` must not reach the object
// the deny protects. Through bin/ward, over every path with a name segment of every mounted backend.
const ROOT = 'case-sweep-root';
const VARIANTS = ['Admin', 'ADMIN', '%41dmin', '%41DMIN'];
const ALL = '["create", "read", "update", "delete", "list", "patch", "sudo"]';

/** The issue's probes: each must be refused for the deny on the lower-case name. */
const ISSUE_PROBES: [string, string, unknown][] = [
  ['POST', 'auth/token/create/Admin', {}],
  ['POST', 'auth/token/roles/Admin', { allowed_policies: 'root' }],
  ['PUT', 'sys/policies/acl/ADMIN', { policy: 'path "*" { capabilities = ["sudo"] }' }],
  ['GET', 'auth/approle/role/Admin/role-id', undefined],
  ['POST', 'auth/approle/role/ADMIN/secret-id', {}],
  ['POST', 'auth/userpass/users/ADMIN/password', { password: 'taken' }],
  ['POST', 'auth/userpass/users/%41dmin/password', { password: 'taken' }],
  ['POST', 'ldap/role/AdminRole', { creation_ldif: 'x', deletion_ldif: 'x' }],
  ['POST', 'ldap/static-role/SVC', { username: 'svc', rotation_period: '1h' }],
];
const ISSUE_DENIED = [
  'auth/token/create/admin',
  'auth/token/roles/admin',
  'sys/policies/acl/admin',
  'auth/approle/role/admin/*',
  'auth/userpass/users/admin/*',
  'ldap/role/adminrole',
  'ldap/static-role/svc',
];

const MOUNTS: [string, unknown][] = [
  ['sys/mounts/kv1', { type: 'kv', options: { version: '1' } }],
  ['sys/mounts/ldap', { type: 'ldap' }],
  ['sys/mounts/pki', { type: 'pki' }],
  ['sys/mounts/totp', { type: 'totp' }],
  ['sys/mounts/transit', { type: 'transit' }],
  ['sys/auth/userpass', { type: 'userpass', options: { bcrypt_cost: '4' } }],
  ['sys/auth/approle', { type: 'approle' }],
  ['sys/auth/github', { type: 'github' }],
  ['sys/auth/gcp', { type: 'gcp' }],
  ['sys/auth/ldap', { type: 'ldap' }],
];

/** Paths the sweep leaves alone: they act on the server itself, not on a named object. */
const SKIPPED = /^sys\/(pprof|monitor|raw|storage|mounts|auth|remount|namespaces|audit|seal|step-down|rotate)/;

/** A body most writes accept; unknown fields only draw a warning. */
const BODY = {
  password: 'pw-123456',
  policy: 'path "nothing" { capabilities = ["read"] }',
  value: 'default',
  generate: true,
  issuer: 'i',
  account_name: 'a',
  token_policies: 'default',
  // An LDAP dynamic role's templates (checked when written, not run).
  creation_ldif: 'dn: cn={{.Username}},ou=users,dc=example,dc=org\nobjectClass: person\ncn: {{.Username}}\nsn: x\n',
  deletion_ldif: 'dn: cn={{.Username}},ou=users,dc=example,dc=org\nchangetype: delete\n',
};

interface Probe {
  template: string;
  param: string;
  methods: string[];
}

describe('letter case and encoding of names (issue 28 point 2)', () => {
  let dev: DevWard;
  let sweepToken = '';
  const call = (method: string, path: string, body?: unknown, token: string | null = ROOT) =>
    request(dev.url, method, path, {
      token,
      body,
      headers: method === 'PATCH' ? { 'Content-Type': 'application/merge-patch+json' } : {},
    });
  const tokenWith = async (policy: string) => {
    assert.equal((await call('PUT', 'sys/policies/acl/sweep', { policy })).status, 204);
    const created = await call('POST', 'auth/token/create', { policies: ['sweep'], no_default_policy: true });
    return created.body.auth.client_token as string;
  };

  before(async () => {
    dev = await startDevWard(ROOT);
    for (const [path, body] of MOUNTS) assert.equal((await call('POST', path, body)).status, 204, path);
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
  });

  it("refuses the issue's 9 probes of a denied name in other letter case", async () => {
    const denies = ISSUE_DENIED.map((p) => `path "${p}" { capabilities = ["deny"] }`).join('\n');
    sweepToken = await tokenWith(`path "*" { capabilities = ${ALL} }\n${denies}`);
    for (const [method, path, body] of ISSUE_PROBES) {
      const res = await call(method, path, body, sweepToken);
      assert.equal(res.status, 403, `${method} ${path}: ${JSON.stringify(res.body)}`);
    }
  });

  it('counts failed logins of every spelling of a name against one lockout (HCSEC-2025-16)', async () => {
    assert.equal((await call('POST', 'auth/userpass/users/locky', { password: 'right' })).status, 204);
    for (const name of ['Locky', 'LOCKY', '%4Cocky', 'lockY', 'locky']) {
      const res = await call('POST', `auth/userpass/login/${name}`, { password: 'wrong' }, null);
      assert.deepEqual(res.body.errors, ['invalid username or password'], name);
    }
    const right = await call('POST', 'auth/userpass/login/LoCkY', { password: 'right' }, null);
    assert.deepEqual([right.status, right.body.errors], [403, ['permission denied']]);
  });

  it('refuses every spelling of a denied name on every path whose backend folds that name', async () => {
    const spec = (await call('GET', 'sys/internal/specs/openapi')).body;
    const probes: Probe[] = [];
    for (const [template, item] of Object.entries<Record<string, unknown>>(spec.paths)) {
      const path = template.slice(1);
      // Unauthenticated paths (logins) see no ACL; their names reach the lockout folded (userpass-login tests).
      if (SKIPPED.test(path) || item['x-vault-unauthenticated']) continue;
      for (const [, param] of path.matchAll(/\{(\w+)\}/g)) {
        const methods = ['get', 'post', 'delete', 'patch'].filter((m) => m in item).map((m) => m.toUpperCase());
        if (param) probes.push({ template: path, param, methods });
      }
    }
    const concrete = (p: Probe, name: string) =>
      p.template.replace(/\{(\w+)\}/g, (_, param) => (param === p.param ? name : 'p'));

    // Objects under the lower-case name, created as root where a path creates them.
    for (const p of probes) if (p.methods.includes('POST')) await call('POST', concrete(p, 'admin'), BODY);
    // A backend folds a name when root reads the object back under another spelling.
    const folding: Probe[] = [];
    for (const p of probes.filter((x) => x.methods.includes('GET'))) {
      const lower = await call('GET', concrete(p, 'admin'));
      if (lower.status !== 200) continue;
      const other = await call('GET', concrete(p, 'Admin'));
      if (other.status === 200 && JSON.stringify(other.body.data) === JSON.stringify(lower.body.data)) folding.push(p);
    }
    // The object a name segment names: the template up to that segment (`auth/approle/role/{role_name}`).
    const objectOf = (p: Probe) => p.template.slice(0, p.template.indexOf(`{${p.param}}`) + p.param.length + 2);
    const folded = new Set(folding.map(objectOf));
    // Every path below a folding object's name (`…/role/{role_name}/secret-id`) names it too.
    const targets = probes.filter((p) => folded.has(objectOf(p)));
    const denies = targets.map((p) => `path "${concrete(p, 'admin')}" { capabilities = ["deny"] }`);
    sweepToken = await tokenWith(`path "*" { capabilities = ${ALL} }\n${[...new Set(denies)].join('\n')}`);

    const reached: string[] = [];
    for (const p of targets) {
      for (const method of p.methods) {
        const body = method === 'GET' ? undefined : {};
        assert.equal((await call(method, concrete(p, 'admin'), body, sweepToken)).status, 403, concrete(p, 'admin'));
        for (const name of VARIANTS) {
          const res = await call(method, concrete(p, name), body, sweepToken);
          if (res.status !== 403) reached.push(`${method} ${concrete(p, name)} -> ${res.status}`);
        }
      }
    }
    console.log(`# folding: ${[...folded].join(' ')}`);
    console.log(
      `# ${probes.length} name segments, ${folding.length} read back under another case, ${targets.length} swept`,
    );
    assert.deepEqual(reached, []);
    // The sweep found the backends the issue names.
    for (const mount of ['auth', 'sys', 'identity', 'ldap']) {
      assert.ok(
        targets.some((p) => p.template.startsWith(mount)),
        `no folding path found under ${mount}/: ${[...folded].join(' ')}`,
      );
    }
  });
});
