import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { parseGoBool } from '@ward/base';
import { createClient, type FetchFunction } from '@ward/secrets-client';
import type { CommandContext, ContextFactory, Runtime } from './command.js';
import { CliError } from './command.js';
import { flagBool, flagValue, type ParsedArgs, UsageError } from './flags.js';
import { createOutput } from './output.js';
import { readSecret } from './prompt.js';
import { capturingFetch } from './request-capture.js';
import { runProgram } from './run-program.js';
import { tokenStoreFor } from './token-file.js';

/** The established default: TLS on the loopback address. */
const DEFAULT_ADDRESS = 'https://127.0.0.1:8200';

/**
 * The context factory for one run. Flags beat the environment: `-address` over `WARD_ADDR`
 * over `VAULT_ADDR`; the token is `VAULT_TOKEN`, else the one `login` saved. `fetch` replaces the
 * network (a test's `createFetchDouble` from @ward/secrets-client); `-output-curl-string` still wins.
 */
export function contextFactory(rt: Runtime, fetch?: FetchFunction): ContextFactory {
  return async (globals) => {
    const env = rt.env;
    const tokenFile = await tokenStoreFor(env, env.HOME || homedir());
    const caPath = flagValue(globals, 'ca-cert') ?? env.VAULT_CACERT;
    const certPath = flagValue(globals, 'client-cert') ?? env.VAULT_CLIENT_CERT;
    const keyPath = flagValue(globals, 'client-key') ?? env.VAULT_CLIENT_KEY;
    if (!certPath !== !keyPath) throw new CliError('-client-cert and -client-key go together', 1);
    const client = createClient({
      address: flagValue(globals, 'address') ?? (env.WARD_ADDR || env.VAULT_ADDR || DEFAULT_ADDRESS),
      token: env.VAULT_TOKEN || (await tokenFile.read()),
      namespace: flagValue(globals, 'namespace') ?? env.VAULT_NAMESPACE,
      wrapTtl: flagValue(globals, 'wrap-ttl') ?? env.VAULT_WRAP_TTL,
      ...(caPath ? { caCert: await readPem(caPath, 'CA certificate') } : {}),
      ...(certPath && keyPath
        ? {
            clientCert: {
              cert: await readPem(certPath, 'client certificate'),
              key: await readPem(keyPath, 'client key'),
            },
          }
        : {}),
      skipVerify: flagBool(globals, 'tls-skip-verify') || parseBoolEnv('VAULT_SKIP_VERIFY', env.VAULT_SKIP_VERIFY),
      ...(fetch ? { fetch } : {}),
      ...captureOption(globals),
    });
    const out = createOutput(
      (s) => rt.stdout.write(s),
      flagValue(globals, 'format') ?? (env.VAULT_FORMAT || 'table'),
      flagValue(globals, 'field'),
    );
    const ctx: CommandContext & { close(): Promise<void> } = {
      client,
      out,
      tokenFile,
      env,
      argv: rt.argv,
      readStdin: () => readAll(rt.stdin),
      readSecret: (label) => readSecret(rt.stdin, rt.stderr, label),
      readFile: async (path) => {
        try {
          return await readFile(path, 'utf8');
        } catch (err) {
          throw new CliError(`cannot read ${path}: ${(err as Error).message}`, 1);
        }
      },
      writeRaw: (chunk) =>
        new Promise<void>((resolve, reject) => rt.stdout.write(chunk, (err) => (err ? reject(err) : resolve()))),
      runProgram: (program, args, extraEnv) => runProgram(rt, program, args, extraEnv),
      close: () => client.close(),
    };
    return ctx;
  };
}

/** `-output-curl-string` / `-output-policy`: the client stops at the command's request (request-capture.ts). */
function captureOption(globals: ParsedArgs): { fetch?: FetchFunction } {
  if (flagBool(globals, 'output-curl-string')) return { fetch: capturingFetch('curl') };
  if (flagBool(globals, 'output-policy')) return { fetch: capturingFetch('policy') };
  return {};
}

async function readPem(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read the ${what} ${path}: ${(err as Error).message}`, 1);
  }
}

/** Go's strconv.ParseBool, which the established CLI uses for its boolean variables. */
function parseBoolEnv(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '') return false;
  const flag = parseGoBool(value);
  if (flag !== undefined) return flag;
  throw new UsageError(`could not parse ${name}: "${value}" is not a boolean`);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text;
}
