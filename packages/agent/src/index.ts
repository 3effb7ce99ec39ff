export { Agent } from './agent.js';
export { main } from './cli/main.js';
export { type AgentConfig, defaultConfig, mergeConfig } from './config/config.js';
export { loadConfig } from './config/load.js';
export { LogHub } from './monitor/log-hub.js';
export type { AgentDeps, AgentServices } from './services.js';
