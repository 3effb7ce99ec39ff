export {
  invalidWrappingToken,
  ResponseWrapping,
  type Unwrapped,
  type WrappingDeps,
  type WrappingLookup,
  type WrappingTokenRef,
} from './response-wrapping.js';
