import { Tokenizer, TokenParser, TokenType } from '@streamparser/json';
import { InvalidRequestError } from '../logical/errors.js';

/** The listener's JSON limits (`max_json_*`), enforced while a body is parsed. */
export interface JsonLimits {
  /** Containers (objects and arrays) open at once. */
  maxDepth: number;
  /** Characters in one string, key or value. */
  maxStringValueLength: number;
  /** Entries in one object. */
  maxObjectEntryCount: number;
  /** Elements in one array. */
  maxArrayElementCount: number;
}

/** The established defaults. */
export const DEFAULT_JSON_LIMITS: JsonLimits = {
  maxDepth: 500,
  maxStringValueLength: 1_048_576,
  maxObjectEntryCount: 10_000,
  maxArrayElementCount: 10_000,
};

/**
 * The deepest nesting a listener may be configured to accept. Request data is walked
 * recursively (field parsing, merge patches, subkeys, audit hashing, the storage encoder),
 * so a bound keeps everything the server accepts readable again.
 */
export const MAX_JSON_DEPTH_SETTING = 1_000;

interface OpenContainer {
  isObject: boolean;
  count: number;
  /** In an object: the next string is a key. */
  expectsKey: boolean;
}

/**
 * One JSON document parsed from pieces as they arrive (a maintained streaming tokenizer builds
 * the value), refused with a 400 naming the limit as soon as the text passes one. Nothing is
 * parsed in one long synchronous call, and a `__proto__` key stays an ordinary key.
 */
export class JsonBodyParser {
  readonly #tokenizer = new Tokenizer();
  readonly #parser = new TokenParser({ paths: ['$'] });
  readonly #open: OpenContainer[] = [];
  #value: unknown;
  #hasValue = false;
  #hasTokens = false;

  constructor(private readonly limits: JsonLimits) {
    const rethrow = (err: Error) => {
      throw err;
    };
    this.#tokenizer.onError = rethrow;
    this.#parser.onError = rethrow;
    this.#parser.onValue = ({ value }) => {
      this.#value = value;
      this.#hasValue = true;
    };
    this.#tokenizer.onToken = (info) => {
      this.#hasTokens = true;
      this.#check(info.token, info.value);
      this.#parser.write(info);
    };
  }

  /** Parses the next piece of the text. Throws InvalidRequestError on bad JSON or a passed limit. */
  write(piece: Uint8Array | string): void {
    this.#guard(() => this.#tokenizer.write(piece));
  }

  /** The parsed document, `undefined` for a text of white space only; throws when the text ended early. */
  end(): unknown {
    this.#guard(() => this.#tokenizer.end());
    if (!this.#hasTokens) return undefined;
    if (!this.#hasValue) throw new InvalidRequestError('failed to parse JSON input: unexpected end of JSON input');
    return this.#value;
  }

  #guard(step: () => void): void {
    try {
      step();
    } catch (err) {
      if (err instanceof InvalidRequestError) throw err;
      throw new InvalidRequestError(`failed to parse JSON input: ${(err as Error).message}`, { cause: err });
    }
  }

  #check(token: TokenType, value: unknown): void {
    const top = this.#open.at(-1);
    switch (token) {
      case TokenType.LEFT_BRACE:
      case TokenType.LEFT_BRACKET:
        this.#countElement(top);
        if (this.#open.length >= this.limits.maxDepth) throw limitError('max_json_depth', this.limits.maxDepth);
        this.#open.push({ isObject: token === TokenType.LEFT_BRACE, count: 0, expectsKey: true });
        return;
      case TokenType.RIGHT_BRACE:
      case TokenType.RIGHT_BRACKET:
        this.#open.pop();
        return;
      case TokenType.COLON:
        if (top) top.expectsKey = false;
        return;
      case TokenType.COMMA:
        if (top) top.expectsKey = true;
        return;
      case TokenType.STRING:
        if ((value as string).length > this.limits.maxStringValueLength) {
          throw limitError('max_json_string_value_length', this.limits.maxStringValueLength);
        }
        if (top?.isObject && top.expectsKey) {
          top.count++;
          if (top.count > this.limits.maxObjectEntryCount) {
            throw limitError('max_json_object_entry_count', this.limits.maxObjectEntryCount);
          }
          return;
        }
        this.#countElement(top);
        return;
      default:
        this.#countElement(top);
    }
  }

  #countElement(top: OpenContainer | undefined): void {
    if (!top || top.isObject) return;
    top.count++;
    if (top.count > this.limits.maxArrayElementCount) {
      throw limitError('max_json_array_element_count', this.limits.maxArrayElementCount);
    }
  }
}

/** The 400 for a body past one of the listener's limits (a form body is held to the JSON limits too). */
export function limitError(setting: string, limit: number, what = 'JSON'): InvalidRequestError {
  return new InvalidRequestError(`failed to parse ${what} input: the body exceeds ${setting} (${limit})`);
}

/** Bytes parsed between two turns of the event loop, so a large body never holds it for long. */
const SLICE_BYTES = 16 * 1024;

/** Parses `piece`: at once when small, else in slices with a turn of the event loop between them. */
export function writeInSlices(parser: JsonBodyParser, piece: Uint8Array): void | Promise<void> {
  if (piece.length <= SLICE_BYTES) return parser.write(piece);
  return (async () => {
    for (let start = 0; start < piece.length; start += SLICE_BYTES) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      parser.write(piece.subarray(start, start + SLICE_BYTES));
    }
  })();
}

/** Bodies up to this size are parsed whole by `JSON.parse`: one native call is short at this size. */
const SMALL_BODY_BYTES = 16 * 1024;

/**
 * A request's JSON body, parsed the cheap way when it can be. Most bodies are a few hundred
 * bytes: they are kept until the end, parsed by `JSON.parse` (natively, tens of times faster
 * than the streaming tokenizer) and the value checked against the limits. A body that grows past
 * SMALL_BODY_BYTES goes through JsonBodyParser as it arrives; so does a small one that is invalid,
 * over a limit, or not clean UTF-8, so every refusal carries JsonBodyParser's message.
 */
export class JsonBody {
  #kept: Buffer[] = [];
  #keptBytes = 0;
  #streaming: JsonBodyParser | undefined;

  constructor(private readonly limits: JsonLimits) {}

  write(chunk: Buffer): void | Promise<void> {
    if (!this.#streaming && this.#keptBytes + chunk.length <= SMALL_BODY_BYTES) {
      this.#kept.push(chunk);
      this.#keptBytes += chunk.length;
      return;
    }
    if (!this.#streaming) {
      this.#streaming = new JsonBodyParser(this.limits);
      for (const kept of this.#kept) this.#streaming.write(kept);
      this.#kept = [];
    }
    return writeInSlices(this.#streaming, chunk);
  }

  end(): unknown {
    if (this.#streaming) return this.#streaming.end();
    const text = this.#kept.length === 1 ? (this.#kept[0] as Buffer).toString() : Buffer.concat(this.#kept).toString();
    // U+FFFD: bytes that were not UTF-8 (or the character itself): JsonBodyParser decides.
    if (!text.includes('\uFFFD') && isShortForEntryLimit(text, this.limits)) {
      try {
        const value: unknown = JSON.parse(text);
        if (isWithinLimits(value, this.limits, 0)) return value;
      } catch {
        // invalid JSON: JsonBodyParser gives the established message
      }
    }
    return parseJsonText(text, this.limits);
  }
}

/**
 * JsonBodyParser counts an object's entries as written, duplicate keys included; a parsed value
 * keeps one of each. A text too short to hold more entries than the limit cannot tell them apart.
 */
function isShortForEntryLimit(text: string, limits: JsonLimits): boolean {
  return text.length < 4 * limits.maxObjectEntryCount; // each entry takes at least `"":0,`
}

/** Whether a parsed value keeps the limits JsonBodyParser enforces on its text. */
function isWithinLimits(value: unknown, limits: JsonLimits, depth: number): boolean {
  if (typeof value === 'string') return value.length <= limits.maxStringValueLength;
  if (typeof value !== 'object' || value === null) return true;
  if (depth + 1 > limits.maxDepth) return false;
  if (Array.isArray(value)) {
    if (value.length > limits.maxArrayElementCount) return false;
    for (const element of value) if (!isWithinLimits(element, limits, depth + 1)) return false;
    return true;
  }
  const keys = Object.keys(value);
  if (keys.length > limits.maxObjectEntryCount) return false;
  for (const key of keys) {
    if (key.length > limits.maxStringValueLength) return false;
    if (!isWithinLimits((value as Record<string, unknown>)[key], limits, depth + 1)) return false;
  }
  return true;
}

/** Parses a whole JSON text at once, with the same limits (bodies already in memory, such as form-typed JSON). */
export function parseJsonText(text: string, limits: JsonLimits): unknown {
  const parser = new JsonBodyParser(limits);
  parser.write(text);
  return parser.end();
}
