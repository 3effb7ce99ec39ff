export type { AuditBroker, AuditedRequest } from './audit-broker.js';
export type { AuditTableEntry } from './audit-device.js';
export {
  type AuditAdmin,
  type AuditDeviceInput,
  AuditDevices,
  type AuditDevicesDeps,
  type AuditDeviceView,
} from './audit-devices.js';
