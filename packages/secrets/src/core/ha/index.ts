export { HaCampaign, type HaLock, type HaOptions, type LeaderAddresses } from './ha-campaign.js';
