/**
 * What the primary process and its worker processes (`workers` > 1) tell each other over the
 * node:cluster IPC channel (a socket pair between parent and child: no other process reads it).
 * Only the seal state travels here; requests and data go through the listeners and the storage.
 */
export type WorkerMessage =
  /** A worker opened its barrier (an operator unsealed it, or a sibling's key did): here is the root key. */
  | { type: 'ward:unsealed'; rootKey: string }
  /** A worker was sealed through `sys/seal` (not by its own shutdown). */
  | { type: 'ward:sealed' }
  /** A worker started serving; the primary hands it the root key if the others are unsealed. */
  | { type: 'ward:ready' }
  /** Answers `ward:share-root-key`: the root key for the worker named. */
  | { type: 'ward:root-key'; forWorker: number; rootKey: string }
  /** `sys/metrics` was asked of this worker: gather every worker's metrics (answered by `ward:metrics-answer`). */
  | { type: 'ward:metrics-request'; id: number }
  /** Answers `ward:metrics-collect`: this worker's metrics (prom-client's JSON). */
  | { type: 'ward:metrics'; id: number; asker: number; metrics: unknown[] };

export type PrimaryMessage =
  /** Unseal with this root key (the operator unsealed a sibling). */
  | { type: 'ward:unseal'; rootKey: string }
  /** A sibling was sealed: seal too. */
  | { type: 'ward:seal' }
  /** A restarted sibling needs the root key: answer with `ward:root-key`. */
  | { type: 'ward:share-root-key'; forWorker: number }
  /** Send your metrics for worker `asker`'s request `id`. */
  | { type: 'ward:metrics-collect'; id: number; asker: number }
  /** Every worker's metrics that answered in time, for this worker's request `id`. */
  | { type: 'ward:metrics-answer'; id: number; metrics: unknown[][] };

/** The environment variable naming a worker process's number (1…N); set by the primary. */
export const WORKER_ID_ENV = 'WARD_WORKER_ID';

/** Narrows an IPC message to one of ours (anything else on the channel is Node's own or foreign). */
export function isMessageOf<T extends { type: string }>(message: unknown): message is T {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { type?: unknown }).type === 'string' &&
    (message as { type: string }).type.startsWith('ward:')
  );
}
