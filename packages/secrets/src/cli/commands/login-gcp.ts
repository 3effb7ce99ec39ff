import { type Clock, DurationError, durationSeconds, parseDuration } from '@ward/base';
import { googleApis, googleStatus } from '../../google/apis.js';
import { googleAuthClient } from '../../google/auth-client.js';
import { parseServiceAccountCredentials, type ServiceAccountCredentials } from '../../google/credentials.js';
import { CliError } from '../command.js';
import { UsageError } from '../flags.js';

/** The established default of `jwt_exp`: a role's default `max_jwt_exp`. */
const DEFAULT_JWT_EXP_S = 15 * 60;
/** Ward's own override of the IAM credentials API's base URL (private endpoints, tests). */
export const IAMCREDENTIALS_ENDPOINT_ENV = 'WARD_GCP_IAMCREDENTIALS_ENDPOINT';

/** `credentials=` (JSON, or `@file` as any parameter), else the key file GOOGLE_APPLICATION_CREDENTIALS names. */
async function keyFileFor(
  params: Record<string, string>,
  env: NodeJS.ProcessEnv,
  readFile: (path: string) => Promise<string>,
): Promise<ServiceAccountCredentials | undefined> {
  let json = params.credentials;
  let where = 'credentials=…';
  const adcFile = env.GOOGLE_APPLICATION_CREDENTIALS;
  if (json === undefined && adcFile) {
    where = `GOOGLE_APPLICATION_CREDENTIALS (${adcFile})`;
    try {
      json = await readFile(adcFile);
    } catch (err) {
      throw new CliError(`could not read ${where}: ${(err as Error).message}`, 2);
    }
  }
  if (json === undefined) return undefined;
  try {
    return parseServiceAccountCredentials(json);
  } catch (err) {
    throw new UsageError(`${where}: ${(err as Error).message}`);
  }
}

/** `jwt_exp=` as established: seconds, or a duration (`15m`). */
function jwtExpSeconds(text: string | undefined): number {
  if (text === undefined) return DEFAULT_JWT_EXP_S;
  try {
    const seconds = durationSeconds(parseDuration(text, 'api'));
    if (seconds > 0) return seconds;
  } catch (err) {
    if (!(err instanceof DurationError)) throw err;
  }
  throw new UsageError(`could not parse jwt_exp '${text}' into a duration`);
}

/**
 * The JWT of `ward login -method=gcp` when none is given: `{aud: "http://vault/<role>", sub, exp}`
 * signed by IAM credentials `signJwt` for `service_account=` (default: the key file's account),
 * called with the key file's credentials (or, with `service_account=` alone, the Application
 * Default Credentials).
 */
export async function gcpLoginJwt(
  params: Record<string, string>,
  env: NodeJS.ProcessEnv,
  readFile: (path: string) => Promise<string>,
  clock: Clock,
): Promise<string> {
  const role = params.role ?? '';
  const expS = jwtExpSeconds(params.jwt_exp);
  const key = await keyFileFor(params, env, readFile);
  const account = params.service_account || key?.client_email;
  if (!account) {
    throw new CliError(
      'could not obtain a service account: give credentials=@key.json, set GOOGLE_APPLICATION_CREDENTIALS, ' +
        'or name the account with service_account=…',
      2,
    );
  }
  const endpoint = env[IAMCREDENTIALS_ENDPOINT_ENV];
  const apis = googleApis(googleAuthClient(key, clock), endpoint ? { iamcredentials: endpoint } : {});
  const payload = {
    aud: `http://vault/${role}`,
    sub: account,
    exp: Math.floor(clock.now() / 1000) + expS,
  };
  const name = `projects/${params.project || '-'}/serviceAccounts/${account}`;
  try {
    const res = await apis.iamCredentials.projects.serviceAccounts.signJwt({
      name,
      requestBody: { payload: JSON.stringify(payload) },
    });
    if (!res.data.signedJwt) throw new Error('signJwt returned no JWT');
    return res.data.signedJwt;
  } catch (err) {
    const status = googleStatus(err);
    const why = (err as Error).message.split('\n')[0];
    throw new CliError(`unable to sign a JWT for ${name}: ${status ? `${status} ` : ''}${why}`, 2);
  }
}
