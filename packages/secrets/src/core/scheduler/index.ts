/** The core's scheduler: periodic tasks of backends and `sys/` on the injected clock, on the active server only. @module */
export { Scheduler, type SchedulerDeps, type TaskGroup } from './scheduler.js';
