/** Audit devices (file, socket) and the broker that writes each request and response to them, values HMAC'd. @module */
export type { AuditBroker, AuditedRequest } from './audit-broker.js';
export type { AuditTableEntry } from './audit-device.js';
export {
  type AuditAdmin,
  type AuditDeviceInput,
  AuditDevices,
  type AuditDevicesDeps,
  type AuditDeviceView,
} from './audit-devices.js';
