import { CodedError } from '@ward/base';

/**
 * A write reached the barrier of a performance standby. Not a `LogicalError`: no client ever
 * sees it, the HTTP layer hands the request to the active server instead (forwarding, or a
 * redirect), where the write belongs.
 */
export class ReadOnlyStorageError extends CodedError<'read_only_storage'> {
  readonly code = 'read_only_storage';
  constructor() {
    super('this server is a performance standby: writes go to the active server');
  }
}
