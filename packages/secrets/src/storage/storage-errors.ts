import { CodedError } from '@ward/base';

/**
 * The configured store cannot be used as it is (a damaged or emptied database file): raised while
 * the server starts, before anything is served. `ward server` prints the message, one line naming
 * the file and the fix, and exits 1.
 */
export class StorageUnusableError extends CodedError<'storage_unusable'> {
  readonly code = 'storage_unusable';
}
