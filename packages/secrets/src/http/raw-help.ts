import type { HelpResponse } from '@ward/secrets-client';

/**
 * Help for the routes the HTTP layer answers itself (sys-raw.ts): they have no path declaration
 * for `?help=1` to come from, yet `ward path-help sys/health` must answer as for any other path.
 */
const RAW_HELP: ReadonlyMap<string, { synopsis: string; description: string }> = new Map([
  [
    'sys/init',
    {
      synopsis: 'Initialise a new server.',
      description:
        'GET tells whether the server is initialised; PUT with secret_shares and secret_threshold (recovery_shares and recovery_threshold with an auto seal) initialises it and returns the key shares and the root token once.',
    },
  ],
  [
    'sys/seal-status',
    {
      synopsis: 'The seal status.',
      description:
        'Whether the server is sealed, the seal type, the key threshold and shares, and the progress of an unseal. No token needed.',
    },
  ],
  [
    'sys/unseal',
    {
      synopsis: 'Submit one key share.',
      description:
        'PUT with key adds a share towards the threshold; reset=true drops the shares given so far; migrate=true during a seal migration. No token needed.',
    },
  ],
  [
    'sys/health',
    {
      synopsis: 'The health of the server, for load balancers.',
      description:
        'The status code tells the state: 200 active, 429 standby, 473 performance standby, 501 not initialised, 503 sealed; standbyok, perfstandbyok, activecode, standbycode, sealedcode and uninitcode change them. No token needed.',
    },
  ],
  [
    'sys/leader',
    {
      synopsis: 'The HA leader.',
      description:
        "Whether HA is enabled, whether this server is the leader, and the leader's API and cluster addresses. No token needed.",
    },
  ],
]);

/** The help answer for a raw route, or undefined when `path` is not one. */
export function rawRouteHelp(path: string): HelpResponse | undefined {
  const entry = RAW_HELP.get(path);
  if (!entry) return undefined;
  return {
    help: `Request:        ${path}\n\n${entry.synopsis}\n\n## DESCRIPTION\n\n${entry.description}\n`,
    see_also: null,
    openapi: null,
  };
}
