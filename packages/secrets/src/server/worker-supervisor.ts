import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '@ward/base';
import { isMessageOf, type PrimaryMessage, WORKER_ID_ENV, type WorkerMessage } from './worker-messages.js';

/** A worker that dies is started again after this long, doubled (up to the cap) while it keeps dying young. */
const RESTART_DELAY_MS = 100;
const MAX_RESTART_DELAY_MS = 10_000;
/** A worker that served this long before dying counts as healthy: its next restart waits the least again. */
const HEALTHY_AFTER_MS = 10_000;
/** A worker that does not send its metrics within this long is left out of the scrape. */
const GATHER_TIMEOUT_MS = 1_000;

interface Slot {
  id: number;
  worker?: Worker;
  startedAtMs: number;
  restartDelayMs: number;
  /** Its barrier is open (as it last reported, or since it was handed the root key). */
  isUnsealed: boolean;
}

/**
 * The primary process of `workers = N`: it forks N workers (each a whole server on the shared
 * SQLite store; node:cluster hands them the listening sockets), starts again any that dies, relays
 * seal and unseal between them, and stops them all on SIGINT/SIGTERM. It serves no request and
 * opens no storage: a thin process, so each worker has a core to itself.
 *
 * Key material passes through here only in transit (an unsealed worker's root key, to a sibling
 * that is sealed); the primary keeps none.
 */
export class WorkerSupervisor {
  readonly #count: number;
  readonly #logger: Logger;
  readonly #slots = new Map<number, Slot>();
  #isStopping = false;
  /** Some worker has started serving: from then on a worker that dies is started again. */
  #hasServed = false;
  #failed: (() => void) | undefined;
  /**
   * Resolves when a worker exits before any worker ever served (a port in use, an unreadable
   * certificate): starting it again would fail the same way, so the server stops instead.
   */
  readonly failedToStart = new Promise<void>((resolve) => {
    this.#failed = resolve;
  });
  /** Scrapes being gathered, by `<asker>/<request id>`. */
  readonly #gatherings = new Map<string, { expected: number; answers: unknown[][]; finish(): void }>();
  #exited: (() => void) | undefined;

  constructor(count: number, deps: { logger: Logger }) {
    this.#count = count;
    this.#logger = deps.logger;
  }

  start(): void {
    for (let id = 1; id <= this.#count; id++) {
      const slot: Slot = { id, startedAtMs: 0, restartDelayMs: RESTART_DELAY_MS, isUnsealed: false };
      this.#slots.set(id, slot);
      this.#fork(slot);
    }
    this.#logger.info('started worker processes', { workers: this.#count });
  }

  /** SIGTERM to every worker (each shuts down cleanly); resolves once all have exited. */
  async stop(): Promise<void> {
    this.#isStopping = true;
    const alive = [...this.#slots.values()].filter((s) => s.worker && !s.worker.isDead());
    if (alive.length === 0) return;
    const done = new Promise<void>((resolve) => {
      this.#exited = resolve;
    });
    for (const slot of alive) slot.worker?.process.kill('SIGTERM');
    await done;
  }

  #fork(slot: Slot): void {
    const worker = cluster.fork({ [WORKER_ID_ENV]: String(slot.id) });
    slot.worker = worker;
    slot.startedAtMs = Date.now();
    slot.isUnsealed = false;
    worker.on('message', (message: unknown) => {
      if (isMessageOf<WorkerMessage>(message)) this.#onMessage(slot, message);
    });
    worker.on('exit', (code, signal) => this.#onExit(slot, worker, code, signal));
    // The process id an operator (or a test) signals to act on one worker.
    this.#logger.info('worker process started', { worker: slot.id, pid: worker.process.pid });
  }

  #onExit(slot: Slot, worker: Worker, code: number | null, signal: string | null): void {
    if (slot.worker !== worker) return;
    slot.worker = undefined;
    slot.isUnsealed = false;
    if (this.#isStopping) {
      if ([...this.#slots.values()].every((s) => !s.worker)) this.#exited?.();
      return;
    }
    if (!this.#hasServed) {
      this.#logger.error('a worker process exited before serving; stopping', { worker: slot.id, code, signal });
      this.#failed?.();
      return;
    }
    const livedMs = Date.now() - slot.startedAtMs;
    slot.restartDelayMs =
      livedMs >= HEALTHY_AFTER_MS ? RESTART_DELAY_MS : Math.min(slot.restartDelayMs * 2, MAX_RESTART_DELAY_MS);
    const delayMs = livedMs >= HEALTHY_AFTER_MS ? RESTART_DELAY_MS : slot.restartDelayMs;
    this.#logger.warn('worker process exited; starting it again', { worker: slot.id, code, signal, delayMs });
    setTimeout(() => {
      if (!this.#isStopping) this.#fork(slot);
    }, delayMs);
  }

  #onMessage(from: Slot, message: WorkerMessage): void {
    switch (message.type) {
      case 'ward:unsealed':
        from.isUnsealed = true;
        for (const slot of this.#slots.values()) {
          if (slot.isUnsealed || !slot.worker) continue;
          slot.isUnsealed = true;
          this.#send(slot, { type: 'ward:unseal', rootKey: message.rootKey });
        }
        return;
      case 'ward:sealed':
        for (const slot of this.#slots.values()) {
          if (!slot.isUnsealed) continue;
          slot.isUnsealed = false;
          if (slot !== from) this.#send(slot, { type: 'ward:seal' });
        }
        from.isUnsealed = false;
        return;
      case 'ward:ready': {
        this.#hasServed = true;
        const unsealed = [...this.#slots.values()].find((s) => s.isUnsealed && s !== from && s.worker);
        if (unsealed) this.#send(unsealed, { type: 'ward:share-root-key', forWorker: from.id });
        return;
      }
      case 'ward:metrics-request':
        this.#gatherMetrics(from, message.id);
        return;
      case 'ward:metrics': {
        const gathering = this.#gatherings.get(`${message.asker}/${message.id}`);
        gathering?.answers.push(message.metrics);
        if (gathering && gathering.answers.length >= gathering.expected) gathering.finish();
        return;
      }
      case 'ward:root-key': {
        const target = this.#slots.get(message.forWorker);
        if (!target || target.isUnsealed) return;
        target.isUnsealed = true;
        this.#send(target, { type: 'ward:unseal', rootKey: message.rootKey });
        return;
      }
    }
  }

  /** Asks every live worker for its metrics; answers the asker once all did, or after a second with those that did. */
  #gatherMetrics(asker: Slot, id: number): void {
    const live = [...this.#slots.values()].filter((s) => s.worker?.isConnected());
    const key = `${asker.id}/${id}`;
    const gathering = {
      expected: live.length,
      answers: [] as unknown[][],
      finish: () => {
        clearTimeout(timer);
        this.#gatherings.delete(key);
        this.#send(asker, { type: 'ward:metrics-answer', id, metrics: gathering.answers });
      },
    };
    const timer = setTimeout(() => gathering.finish(), GATHER_TIMEOUT_MS);
    this.#gatherings.set(key, gathering);
    for (const slot of live) this.#send(slot, { type: 'ward:metrics-collect', id, asker: asker.id });
  }

  #send(slot: Slot, message: PrimaryMessage): void {
    if (slot.worker?.isConnected()) slot.worker.send(message);
  }
}
