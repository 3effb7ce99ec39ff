import type { Cancel, Clock, Logger } from '@ward/base';
import type { PeriodicTask } from '../../framework/index.js';

export interface SchedulerDeps {
  clock: Clock;
  logger: Logger;
  /**
   * Whether periodic work may run on this server now; a run whose turn comes while this
   * answers false is skipped (the next turn asks again). Always true today; with HA the
   * core passes "this server is the active one", so standbys never rotate or sweep.
   */
  isActive?: () => boolean;
}

/** The periodic tasks of one owner (a mount), started and stopped together. */
export interface TaskGroup {
  /** Cancels every future run and waits for a run under way. Calling it twice is harmless. */
  stop(): Promise<void>;
}

/**
 * Runs periodic work on the injected clock. Each task runs `intervalMs` after its previous
 * run ended, so a task never overlaps itself however long it takes. A failing run is
 * logged and the task keeps its schedule. The core starts a mount's tasks when the mount
 * starts (while unsealed) and stops them on unmount and on seal.
 */
export class Scheduler {
  readonly #d: SchedulerDeps;
  readonly #groups = new Set<TaskGroup>();
  readonly #running = new Set<Promise<void>>();

  constructor(deps: SchedulerDeps) {
    this.#d = deps;
  }

  /** Starts `tasks` for `owner` (named in logs); the first run of each comes one interval from now. */
  start(owner: string, tasks: readonly PeriodicTask[]): TaskGroup {
    for (const task of tasks) {
      if (!Number.isSafeInteger(task.intervalMs) || task.intervalMs <= 0) {
        throw new Error(`periodic task ${owner}${task.name}: interval must be a positive whole number of ms`);
      }
    }
    const stops = tasks.map((task) => this.#loop(owner, task));
    const group: TaskGroup = {
      stop: async () => {
        this.#groups.delete(group);
        await Promise.all(stops.map((stop) => stop()));
      },
    };
    this.#groups.add(group);
    return group;
  }

  /** Stops every group (on seal). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#groups].map((g) => g.stop()));
  }

  /** Resolves once no run is under way (tests call it after moving a fake clock). */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }

  /** Arms one task's timer; returns its stop function. */
  #loop(owner: string, task: PeriodicTask): () => Promise<void> {
    let cancel: Cancel | undefined;
    let current: Promise<void> | undefined;
    let isStopped = false;
    const arm = () => {
      cancel = this.#d.clock.setTimeout(fire, task.intervalMs);
    };
    const fire = () => {
      cancel = undefined;
      if (isStopped) return;
      if (this.#d.isActive && !this.#d.isActive()) {
        arm();
        return;
      }
      const run = this.#runOnce(owner, task).finally(() => {
        this.#running.delete(run);
        current = undefined;
        if (!isStopped) arm();
      });
      current = run;
      this.#running.add(run);
    };
    arm();
    return async () => {
      isStopped = true;
      cancel?.();
      cancel = undefined;
      await current;
    };
  }

  async #runOnce(owner: string, task: PeriodicTask): Promise<void> {
    try {
      await task.run();
    } catch (err) {
      this.#d.logger.warn('periodic task failed', { owner, task: task.name, err });
    }
  }
}
