import { CodedError } from '@ward/base';

/** A failure the command itself detected (not the API's); carries the exit status to use. */
export class CliError extends CodedError<'cli_error'> {
  readonly code = 'cli_error';
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
