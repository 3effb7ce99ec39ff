import { CodedError } from '../coded-error.js';

/**
 * A failure a command found itself (not a usage mistake, not the remote API's answer): the
 * binary's `main` prints `Error: <message>` without a stack and exits `exitCode`.
 */
export class CliError extends CodedError<'cli_error'> {
  readonly code = 'cli_error';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
