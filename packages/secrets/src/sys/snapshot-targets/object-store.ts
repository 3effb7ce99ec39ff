import { Readable } from 'node:stream';
import { InvalidRequestError } from '../../logical/errors.js';
import { type SnapshotConfig, specificValue } from '../snapshot-auto/config.js';
import type { StoredSnapshot } from './snapshot-target.js';

// Helpers the bucket and container targets share.

/**
 * The object-name "folder" a `path_prefix` stands for in a bucket or container: `snaps`, `snaps/` and
 * `/snaps/` all mean `snaps/`; `/` (or nothing) means the top level.
 */
export function objectPrefix(pathPrefix: string): string {
  const trimmed = pathPrefix.replace(/^\/+/, '').replace(/\/+$/, '');
  return trimmed === '' ? '' : `${trimmed}/`;
}

/**
 * Runs `upload` over `body` as a byte stream and resolves with its result and the bytes it read. On
 * failure the stream is destroyed, which ends `body`: an SDK that gives up does not always drain or
 * close what it was reading, and the server's snapshot stream holds a consistent read until it ends.
 */
export async function uploadFrom<T>(
  body: AsyncIterable<Uint8Array>,
  upload: (stream: Readable) => Promise<T>,
): Promise<{ result: T; size: number }> {
  let size = 0;
  async function* counted() {
    for await (const chunk of body) {
      size += chunk.byteLength;
      yield chunk;
    }
  }
  const stream = Readable.from(counted(), { objectMode: false });
  try {
    return { result: await upload(stream), size };
  } catch (err) {
    stream.destroy();
    throw err;
  }
}

/**
 * A configured endpoint as a URL: a bare `host:port` gets `http://` when TLS is disabled, `https://`
 * otherwise; anything that is not then an http(s) URL is refused (400, naming `field`).
 */
export function endpointUrl(field: string, endpoint: string, disableTls: boolean): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint)
    ? endpoint
    : `${disableTls ? 'http' : 'https'}://${endpoint}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new InvalidRequestError(`${field} is not a URL or host:port`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidRequestError(`${field} must be an http or https URL`);
  }
  return withScheme.replace(/\/+$/, '');
}

/** A provider field given as a non-empty string, whichever spelling it was written with. */
export function specificText(config: SnapshotConfig, suffix: string): string | undefined {
  const value = specificValue(config, suffix);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Code-unit order, which for the 19-digit timestamps in snapshot names is age order. */
export function byName(a: StoredSnapshot, b: StoredSnapshot): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
