export { activateHa } from './activate.js';
export { type ClusterTls, ensureClusterTls, readClusterTls } from './cluster-tls.js';
export { HaCampaign, type HaLock, type HaOptions, type LeaderAddresses, STEP_DOWN_PAUSE_MS } from './ha-campaign.js';
export { HaNode } from './ha-node.js';
export { type HaNodeInfo, type HaNodeReport, HaNodeTable, haNodeReport } from './ha-nodes.js';
export { invalidationTargets } from './invalidation-targets.js';
