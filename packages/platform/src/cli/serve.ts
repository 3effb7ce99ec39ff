import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { CliError, type Clock, cryptoRandom, type Logger, type Random } from '@ward/base';
import type { PlatformContext } from '../context.js';
import { createMemoryRateLimiter } from '../http/rate-limit.js';
import { buildServer } from '../http/server.js';
import { createDatabaseRateLimiter, openStore, type Store, seedCatalogue } from '../store/index.js';
import { seedDevAdmin } from './dev-seed.js';
import type { ServeOptions } from './serve-options.js';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The composition root: opens the store, seeds the plan catalogue (and with `--dev` the admin),
 * and listens. Lines meant for the operator go to `print`; diagnostics go to `logger`.
 */
/** Opens the database named in the options, migrated and with the plan catalogue seeded. */
async function openConfiguredStore(opts: ServeOptions, random: Random, logger: Logger): Promise<Store> {
  let store: Store;
  try {
    store = await openStore(opts.store, random, (err) => logger.warn('database connection lost', { err }));
  } catch (err) {
    throw new CliError(`cannot open the database: ${(err as Error).message}`);
  }
  // The catalogue is reference data every organization needs (new ones start on the free plan).
  await seedCatalogue(store);
  return store;
}

export async function serve(
  opts: ServeOptions,
  deps: { clock: Clock; random?: Random; logger: Logger; print: (line: string) => void },
): Promise<RunningServer> {
  const random = deps.random ?? cryptoRandom;
  let tls: { cert: Buffer; key: Buffer } | undefined;
  if (opts.tlsCertPath && opts.tlsKeyPath) {
    try {
      tls = { cert: readFileSync(opts.tlsCertPath), key: readFileSync(opts.tlsKeyPath) };
    } catch (err) {
      throw new CliError(`cannot read the TLS files: ${(err as Error).message}`);
    }
  }
  const store = await openConfiguredStore(opts, random, deps.logger);
  const ctx: PlatformContext = {
    store,
    clock: deps.clock,
    random,
    logger: deps.logger,
    edition: opts.edition,
    // One SQLite file has one server process; processes sharing PostgreSQL count together in it.
    rateLimiter:
      'postgresUrl' in opts.store
        ? createDatabaseRateLimiter(store.database, opts.rateLimitPerSecond)
        : createMemoryRateLimiter(opts.rateLimitPerSecond),
  };
  // Before listening, so the first request already finds the admin's token.
  const admin = opts.dev ? await seedDevAdmin(ctx, opts.devToken) : undefined;
  const server = buildServer(ctx, tls);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, opts.host, () => resolve());
    });
  } catch (err) {
    await store.close();
    throw new CliError(`cannot listen on ${opts.host}:${opts.port}: ${(err as Error).message}`);
  }
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  const url = `${tls ? 'https' : 'http'}://${host}:${port}`;
  deps.print(`Ward platform (${opts.edition}) listening on ${url}`);
  if (admin) {
    deps.print(`Dev admin user: ${admin.userId}`);
    if (!opts.devToken) deps.print(`Dev admin token: ${admin.token}`);
  }
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          store.close().then(resolve, resolve);
        });
        server.closeIdleConnections();
      }),
  };
}
