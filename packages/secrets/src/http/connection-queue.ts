import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** What runs (or is dropped) in a request's turn: given the exchange, so no closure is made per request. */
export type Turn = (req: IncomingMessage, res: ServerResponse) => void;

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
}

/**
 * Node parses pipelined requests and emits them all at once, queueing only their responses; the
 * established server handles them one by one, so a LIST pipelined after a write sees that write.
 * A ConnectionQueue runs each request's handler once the response before it on its connection is
 * complete.
 *
 * Only the connection's latest exchange is remembered: the request after it waits for that response
 * alone (which itself ran only after the one before it), and nothing is allocated to wait when the
 * response before has already completed, the common case of a connection that does not pipeline.
 */
export class ConnectionQueue {
  readonly #lastExchange = new WeakMap<Duplex, Exchange>();
  /**
   * What waits for each connection to close: one `close` listener per connection, however many
   * pipelined requests wait on it (a listener each passed Node's limit of 10 and warned; issue 28).
   */
  readonly #closeWaiters = new WeakMap<Duplex, Set<() => void>>();

  /**
   * Runs `run` (the handler of `req`) once every earlier response on its connection is complete.
   * When the connection is gone by then, calls `drop` instead, as if the request had never been read:
   * nobody is left to hear its answer. Nor does `run` run if `res` has been answered meanwhile.
   */
  inTurn(req: IncomingMessage, res: ServerResponse, run: Turn, drop: Turn): void {
    const socket = req.socket;
    const previous = this.#lastExchange.get(socket);
    this.#lastExchange.set(socket, { req, res });
    if (previous === undefined || previous.res.closed) {
      run(req, res);
      return;
    }
    if (socket.destroyed) {
      drop(req, res);
      return;
    }
    void this.#turnEnd(previous.res, socket).then(() => {
      if (socket.destroyed) drop(req, res);
      else if (!res.headersSent) run(req, res);
    });
  }

  /** The connection's latest request and its response (the one being received, if any is). */
  lastExchange(socket: Duplex): Exchange | undefined {
    return this.#lastExchange.get(socket);
  }

  /** Runs `fn` once every response queued on `socket` is complete (at once if none is). */
  afterLast(socket: Duplex, fn: () => void): void {
    const last = this.#lastExchange.get(socket);
    if (last === undefined || last.res.closed || socket.destroyed) fn();
    else void this.#turnEnd(last.res, socket).then(fn);
  }

  /** Resolves once `res` is complete, or its connection has closed (a queued response then never closes). */
  #turnEnd(res: ServerResponse, socket: Duplex): Promise<void> {
    return new Promise((resolve) => {
      const end = () => {
        res.off('close', end);
        this.#closeWaiters.get(socket)?.delete(end);
        resolve();
      };
      res.once('close', end);
      this.#whenClosed(socket, end);
    });
  }

  #whenClosed(socket: Duplex, fn: () => void): void {
    let waiters = this.#closeWaiters.get(socket);
    if (!waiters) {
      const all = new Set<() => void>();
      waiters = all;
      this.#closeWaiters.set(socket, all);
      socket.once('close', () => {
        this.#closeWaiters.delete(socket);
        for (const waiter of all) waiter();
      });
    }
    waiters.add(fn);
  }
}
