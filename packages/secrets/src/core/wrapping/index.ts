/** Response wrapping: single-use tokens whose cubbyhole holds a response. @module */
export {
  invalidWrappingToken,
  ResponseWrapping,
  type Unwrapped,
  type WrappingDeps,
  type WrappingLookup,
  type WrappingTokenRef,
} from './response-wrapping.js';
