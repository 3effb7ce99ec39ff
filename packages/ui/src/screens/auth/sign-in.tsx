import { useState } from 'preact/hooks';
import { browserClock } from '../../api/clock.js';
import { type LoginMethod, login, sessionOfAuth } from '../../api/login.js';
import { oidcLogin } from '../../api/oidc-login.js';
import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field, SelectField } from '../../components/field.js';
import { Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';

const METHODS: readonly (readonly [LoginMethod, string])[] = [
  ['token', 'Token'],
  ['userpass', 'Userpass'],
  ['ldap', 'LDAP'],
  ['approle', 'AppRole'],
  ['oidc', 'OIDC'],
];

const REASONS = new Map([
  ['expired', 'Your token expired: sign in again.'],
  ['refused', 'The server no longer accepts your token: sign in again.'],
]);

/** Sign in with a token or through an auth method; the token is kept in this tab's sessionStorage only. */
export function SignIn() {
  const { api, session } = useApp();
  const [method, setMethod] = useState<LoginMethod>('token');
  const [mount, setMount] = useState('');
  const [namespace, setNamespace] = useState(session.namespace());
  const [token, setToken] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [roleId, setRoleId] = useState('');
  const [secretId, setSecretId] = useState('');
  const [role, setRole] = useState('');
  const mountPath = (mount || method).replace(/^\/+|\/+$/g, '');
  const signIn = useAction(async () => {
    const ns = namespace.trim().replace(/^\/+|\/+$/g, '');
    session.setPendingNamespace(ns);
    const now = () => browserClock.now();
    if (method === 'oidc') {
      const auth = await oidcLogin(api, { mount: mountPath, role, namespace: ns, win: window });
      session.signIn(await sessionOfAuth(api, auth, method, ns, now));
      return;
    }
    const input = { method, namespace: ns, mount: mountPath, token, username, password, roleId, secretId };
    session.signIn(await login(api, input, now));
  });
  const reason = session.lastReason && REASONS.get(session.lastReason);
  return (
    <Page title="Sign in to Ward">
      {reason && <output class="notice">{reason}</output>}
      <form
        class="form narrow"
        onSubmit={(e) => {
          e.preventDefault();
          signIn.run();
        }}
      >
        <SelectField label="Method" value={method} options={METHODS} onChange={(v) => setMethod(v as LoginMethod)} />
        {method === 'token' && <Field label="Token" type="password" value={token} onInput={setToken} isCode required />}
        {(method === 'userpass' || method === 'ldap') && (
          <>
            <Field label="Username" value={username} onInput={setUsername} autoComplete="username" required />
            <Field
              label="Password"
              type="password"
              value={password}
              onInput={setPassword}
              autoComplete="current-password"
              required
            />
          </>
        )}
        {method === 'approle' && (
          <>
            <Field label="Role ID" value={roleId} onInput={setRoleId} isCode required />
            <Field label="Secret ID" type="password" value={secretId} onInput={setSecretId} isCode />
          </>
        )}
        {method === 'oidc' && (
          <Field label="Role" value={role} onInput={setRole} hint="Empty: the mount's default_role." />
        )}
        {method !== 'token' && (
          <Field
            label="Mount path"
            value={mount}
            onInput={setMount}
            hint={`Where the method is enabled; empty: ${method}.`}
            isCode
          />
        )}
        <Field label="Namespace" value={namespace} onInput={setNamespace} hint="Empty: the root namespace." isCode />
        <ErrorMessage error={signIn.error} />
        <button type="submit" disabled={signIn.isPending}>
          Sign in
        </button>
      </form>
    </Page>
  );
}
