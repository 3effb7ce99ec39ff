export { type ClusterTls, readClusterTls } from './cluster-tls.js';
export { CoreHa, type CoreHaHooks, type HaStatus } from './core-ha.js';
export type { HaLock, HaOptions, LeaderAddresses } from './ha-campaign.js';
export type { HaNodeInfo, HaNodeReport } from './ha-nodes.js';
export { invalidationTargets } from './invalidation-targets.js';
