import { CliError, defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';
import { parseDataArgs } from '../input.js';
import { CLOUD_LOGIN_METHODS, cloudLogin } from './login-cloud.js';
import { githubLogin } from './login-github.js';
import { checkOidcParams, oidcLogin } from './login-oidc.js';

/**
 * The methods `login` has a helper for. As established, any other (approle, azure, …) is refused
 * before anything is sent: those methods log in through `ward write auth/<path>/login …`.
 */
const LOGIN_METHODS = new Set([
  'token',
  'userpass',
  'ldap',
  'okta',
  'jwt',
  'kubernetes',
  'cert',
  'oidc',
  'aws',
  'gcp',
  'github',
]);

/**
 * `ward login [TOKEN]` (method token) or `ward login -method=userpass username=U password=P`.
 * The new token is saved to `~/.vault-token` (mode 0600) unless `-no-store`.
 */
export const loginCommand = defineCommand({
  name: 'login',
  summary: 'Authenticate and save the token for later commands.',
  usage: '[TOKEN | - | K=V ...]',
  example: 'ward login -method=userpass username=alice',
  description:
    'Methods: token (the default: TOKEN, "-" for stdin, or asked for without echo; checked with\n' +
    'lookup-self); userpass, ldap and okta (username=… [password=…], the password asked for without\n' +
    'echo when not given; POST auth/<path>/login/<username>; okta also takes totp=… [provider=GOOGLE],\n' +
    'else the login waits for an Okta Verify push); jwt and kubernetes (role=… jwt=…, jwt=@file);\n' +
    'cert (with -client-cert and -client-key; [name=…]); oidc (role=… [port=8250 listenaddress=localhost\n' +
    'callbackhost=localhost callbackmethod=http callbackport=… skip_browser=true]: prints the provider\n' +
    'URL, opens a browser, and waits at <callbackmethod>://<callbackhost>:<port>/oidc/callback);\n' +
    'aws ([role=…] [region=us-east-1|auto|…] [header_value=…] [aws_access_key_id=… aws_secret_access_key=…\n' +
    "aws_security_token=…]: signs sts:GetCallerIdentity with the AWS SDK's credentials (AWS_ACCESS_KEY_ID,\n" +
    'AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, the shared profile AWS_PROFILE, …) for the endpoint\n' +
    'AWS_ENDPOINT_URL_STS (default https://sts.amazonaws.com/), header_value as X-Vault-AWS-IAM-Server-ID).\n' +
    'gcp (role=… [service_account=…] [project=-] [jwt_exp=15m] [credentials=@key.json] or role=… jwt=…:\n' +
    'a JWT for the account signed by IAM credentials signJwt with the key file, default\n' +
    'GOOGLE_APPLICATION_CREDENTIALS). github ([token=…]: else VAULT_AUTH_GITHUB_TOKEN, else asked for\n' +
    'without echo). For aws, gcp and github, mount=… names the mount (over -path).\n' +
    'Other methods (approle, azure, …) have no helper: use ward write auth/<path>/login.\n' +
    'The token goes to ~/.vault-token, used when VAULT_TOKEN is unset.',
  flags: {
    method: flag.string(
      'Auth method: token, userpass, ldap, okta, jwt, kubernetes, cert, oidc, aws, gcp or github.',
      'token',
    ),
    path: flag.string('Mount path of the auth method (default: the method name).'),
    'no-store': flag.bool('Do not save the token.'),
  },
  args: { min: 0 },
  async run({ flags, args }, ctx) {
    if (!LOGIN_METHODS.has(flags.method)) {
      throw new UsageError(
        `unknown auth method: ${flags.method}; "ward auth list" lists the enabled ones, and a method ` +
          `without a login helper logs in with "ward write auth/<path>/login …"`,
      );
    }
    let params: Record<string, string> = {};
    if (flags.method === 'token') {
      const [arg, ...extra] = args;
      if (extra.length > 0) throw new UsageError('login -method=token takes one TOKEN (or -)');
      params.token =
        arg === undefined
          ? (await ctx.readSecret('Token (will be hidden): ')).trim()
          : arg === '-'
            ? (await ctx.readStdin()).trim()
            : arg.replace(/^token=/, '');
      if (!params.token) throw new UsageError('a token is required');
    } else {
      params = Object.fromEntries(Object.entries(await parseDataArgs(args, ctx)).map(([k, v]) => [k, String(v)]));
      const needsPassword = flags.method === 'userpass' || flags.method === 'ldap' || flags.method === 'okta';
      if (needsPassword && !params.username) throw new UsageError(`login -method=${flags.method} needs username=…`);
      if (needsPassword && params.password === undefined) {
        params.password = await ctx.readSecret('Password (will be hidden): ');
        if (params.password === '') throw new UsageError('no password given (password=…, the terminal, or stdin)');
      }
    }
    if (flags.method === 'oidc') checkOidcParams(params);
    const auth =
      flags.method === 'oidc'
        ? await oidcLogin(ctx, flags.path ?? 'oidc', params)
        : flags.method === 'github'
          ? await githubLogin(ctx, params, flags.path)
          : CLOUD_LOGIN_METHODS.has(flags.method)
            ? await cloudLogin(ctx, flags.method, params, flags.path)
            : await ctx.client.login(flags.method, params, flags.path);
    if (!auth.client_token) throw new CliError('the server returned no token', 2);
    if (!flags['no-store']) await ctx.tokenFile.save(auth.client_token);
    ctx.out.success(
      flags['no-store']
        ? 'You are now authenticated (the token was not stored).'
        : `You are now authenticated. The token is saved in ${ctx.tokenFile.path} and used by later commands.`,
    );
    ctx.out.auth({
      request_id: '',
      lease_id: '',
      lease_duration: 0,
      renewable: false,
      data: null,
      warnings: null,
      wrap_info: null,
      auth,
    });
    return undefined;
  },
});
