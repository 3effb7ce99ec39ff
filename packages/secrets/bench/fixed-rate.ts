import { connect, type Socket } from 'node:net';

/** One HTTP/1.1 request, already formatted; `next()` gives the bytes of each request in turn. */
export type RequestSource = () => Buffer;

export interface FixedRateOptions {
  /** Requests started per second, whatever the server's pace (an open loop). */
  ratePerSecond: number;
  durationS: number;
  connections: number;
}

export interface FixedRateFigures {
  count: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Sends requests on a fixed schedule over `connections` keep-alive sockets and times each from the
 * moment it was due (so a server that stalls is charged for the requests queued behind the stall).
 *
 * Why not autocannon or wrk: both keep their connections saturated (a closed loop), so the server's
 * pace sets the offered rate, and a slower server is measured at a lower rate, where every response
 * costs the kernel a wake-up the faster one never pays. At one fixed rate both servers do the same
 * work per request. The client is raw sockets with pre-formatted requests, so it costs the shared
 * machine little; it reads only the status line and `Content-Length`, which every answer here has.
 */
export async function runFixedRate(host: string, port: number, next: RequestSource, options: FixedRateOptions) {
  const clients = await Promise.all(Array.from({ length: options.connections }, () => openClient(host, port)));
  const idle = [...clients];
  const waiting: Array<{ due: number; bytes: Buffer }> = [];
  const latenciesMs: number[] = [];
  const total = Math.round(options.ratePerSecond * options.durationS);
  const intervalMs = 1000 / options.ratePerSecond;
  let failure: Error | undefined;
  const send = (client: Client, due: number, bytes: Buffer) => {
    client.exchange(bytes).then(
      (status) => {
        if (status >= 300) failure ??= new Error(`status ${status}`);
        latenciesMs.push(performance.now() - due);
        const queued = waiting.shift();
        if (queued) send(client, queued.due, queued.bytes);
        else idle.push(client);
      },
      (err: Error) => {
        failure ??= err;
      },
    );
  };
  const start = performance.now();
  for (let sent = 0; sent < total && !failure; ) {
    const now = performance.now();
    // Everything due by now leaves now: timers fire at most once a millisecond.
    for (; sent < total && start + sent * intervalMs <= now; sent++) {
      const due = start + sent * intervalMs;
      const client = idle.pop();
      if (client) send(client, due, next());
      else waiting.push({ due, bytes: next() });
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + sent * intervalMs - performance.now())));
  }
  while (latenciesMs.length < total && !failure) await new Promise((resolve) => setTimeout(resolve, 5));
  for (const client of clients) client.close();
  if (failure) throw failure;
  latenciesMs.sort((a, b) => a - b);
  const at = (q: number) => latenciesMs[Math.min(latenciesMs.length - 1, Math.floor(q * latenciesMs.length))] ?? 0;
  return { count: latenciesMs.length, p50Ms: at(0.5), p99Ms: at(0.99) } satisfies FixedRateFigures;
}

interface Client {
  /** Sends one request; resolves with the status once the whole response has arrived. */
  exchange(bytes: Buffer): Promise<number>;
  close(): void;
}

function openClient(host: string, port: number): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host, port, noDelay: true }, () => resolve(client));
    socket.once('error', reject);
    let pending: { resolve: (status: number) => void; reject: (err: Error) => void } | undefined;
    let buffered: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      const headEnd = buffered.indexOf('\r\n\r\n');
      if (headEnd === -1 || !pending) return;
      const head = buffered.toString('latin1', 0, headEnd);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffered.length < headEnd + 4 + length) return;
      buffered = buffered.subarray(headEnd + 4 + length);
      const done = pending;
      pending = undefined;
      done.resolve(Number(head.slice(9, 12)));
    });
    socket.on('close', () => pending?.reject(new Error('connection closed')));
    const client: Client = {
      exchange: (bytes) =>
        new Promise((resolveExchange, rejectExchange) => {
          pending = { resolve: resolveExchange, reject: rejectExchange };
          socket.write(bytes);
        }),
      close: () => socket.destroy(),
    };
  });
}

/** The bytes of one request with a JSON body (or none), as a client library would send them. */
export function formatRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
  host = 'localhost',
): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
}
