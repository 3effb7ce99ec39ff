import { CodedError } from '@ward/base';

/** A bad flag or config file; the CLI prints it and exits with status 1. */
export class ConfigError extends CodedError<'config_invalid'> {
  readonly code = 'config_invalid';
}
