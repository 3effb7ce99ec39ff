/**
 * Base of every error a package reports on purpose. `code` is what callers, tests and the one
 * place that maps errors to an exit or HTTP status match on, never the message. Each package
 * keeps its own union `C` (the secrets server's `ErrorCode`, the agent's, the platform's, the
 * client's) and its own status mapping.
 */
export abstract class CodedError<C extends string = string> extends Error {
  abstract readonly code: C;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Whether `err` is a coded error, of any package. */
export function isCodedError(err: unknown): err is CodedError {
  return err instanceof CodedError;
}
