import {
  type FunctionDeps,
  Template,
  TemplateError,
  templateFunctions,
  type Value,
} from '../../framework/template/index.js';
import { InvalidRequestError } from '../../logical/errors.js';

/** The established default: IAM user names of at most 64 characters, STS session names of at most 32. */
export const DEFAULT_USERNAME_TEMPLATE =
  '{{ if (eq .Type "STS") }}{{ printf "vault-%s-%s" (unix_time) (random 20) | truncate 32 }}' +
  '{{ else }}{{ printf "vault-%s-%s-%s-%s" (.DisplayName | truncate 42) (.PolicyName | truncate 19) (unix_time) (random 20) | truncate 64 }}{{ end }}';

/** Renders user and session names with the engine's template functions (clock and randomness injected). */
export class UsernameRenderer {
  readonly #funcs: ReadonlyMap<string, (args: Value[]) => Value>;
  readonly #parsed = new Map<string, Template>();

  constructor(deps: FunctionDeps) {
    this.#funcs = templateFunctions(deps, { isLdif: false });
  }

  /** The name for `type` (`IAM` or `STS`); characters IAM refuses become `_`. */
  render(source: string, type: 'IAM' | 'STS', displayName: string, policyName: string): string {
    const text = source || DEFAULT_USERNAME_TEMPLATE;
    try {
      let template = this.#parsed.get(text);
      if (!template) {
        template = Template.parse(text, this.#funcs);
        if (this.#parsed.size > 64) this.#parsed.clear();
        this.#parsed.set(text, template);
      }
      const data = new Map<string, Value>([
        ['Type', type],
        ['DisplayName', displayName],
        ['PolicyName', policyName],
      ]);
      return template
        .render(data)
        .toString('utf8')
        .replace(/[^\w+=,.@-]/g, '_');
    } catch (err) {
      if (err instanceof TemplateError) throw new InvalidRequestError(`invalid username_template: ${err.message}`);
      throw err;
    }
  }
}
