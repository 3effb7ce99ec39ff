export { Scheduler, type SchedulerDeps, type TaskGroup } from './scheduler.js';
