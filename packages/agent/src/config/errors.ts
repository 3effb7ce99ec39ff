/** A bad flag or config file; the CLI prints it and exits with status 1. */
export class ConfigError extends Error {
  readonly code = 'config_invalid';
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
