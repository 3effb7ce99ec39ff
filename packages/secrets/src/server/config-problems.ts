import { configKeyLine, type HclDocument } from '@ward/base';
import { InvalidRequestError, LogicalError } from '../logical/errors.js';

/** Where a configuration document came from, so a problem can name the file and line. */
export interface ConfigSource {
  file: string;
  text: string;
  /** The parsed document, whose key lines are exact (repeated blocks each have their own). */
  doc?: HclDocument;
}

interface Problem {
  line?: number;
  message: string;
}

/** Every problem of a configuration file, at once: an operator fixes them all in one edit. */
export class ConfigFileError extends InvalidRequestError {}

/**
 * Collects what is wrong with a configuration file (errors) and what Ward will ignore in it
 * (warnings), each with its line, so a file's problems are reported together, in line order.
 */
export class ConfigProblems {
  readonly #errors: Problem[] = [];
  readonly #warnings: Problem[] = [];

  constructor(readonly source?: ConfigSource) {}

  /** The line where `key` is written in `block` (the block of a parsed document), if known. */
  lineOf(block: object | undefined, key: string): number | undefined {
    const exact = block && this.source?.doc?.lineOf(block, key);
    return exact ?? (this.source ? configKeyLine(this.source.text, key) : undefined);
  }

  /** The line where `block` starts. */
  lineOfBlock(block: object): number | undefined {
    return this.source?.doc?.lineOfBody(block);
  }

  error(line: number | undefined, message: string): void {
    this.#errors.push({ line, message });
  }

  warn(line: number | undefined, message: string): void {
    this.#warnings.push({ line, message });
  }

  /** Runs `parse`; a typed error it throws becomes an error at `line` and the result is undefined. */
  attempt<T>(line: number | undefined, parse: () => T): T | undefined {
    try {
      return parse();
    } catch (err) {
      if (!(err instanceof LogicalError)) throw err;
      this.error(line, err.message);
      return undefined;
    }
  }

  /** The warnings, `file:line: text` each, in line order. */
  warnings(): string[] {
    return this.#sorted(this.#warnings);
  }

  /** Throws one `ConfigFileError` listing every error, one per line in line order, if there is any. */
  throwIfAny(): void {
    if (this.#errors.length > 0) throw new ConfigFileError(this.#sorted(this.#errors).join('\n'));
  }

  #sorted(problems: Problem[]): string[] {
    return problems
      .map((p, i) => ({ ...p, i }))
      .sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) || a.i - b.i)
      .map((p) => `${this.#where(p.line)}${p.message}`);
  }

  #where(line: number | undefined): string {
    if (!this.source) return '';
    return `${this.source.file}${line ? `:${line}` : ''}: `;
  }
}
