import { CodedError } from '@ward/base';

/** A failure the CLI reports as one line on stderr with `exitCode`, without a stack. */
export class CliError extends CodedError<'cli_error'> {
  readonly code = 'cli_error';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
