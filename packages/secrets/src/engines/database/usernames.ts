import type { Clock, Random } from '@ward/base';
import { Template, TemplateError, type TemplateFunction, templateFunctions } from '../../framework/template/index.js';
import { InvalidRequestError } from '../../logical/errors.js';

const MAX_CACHED = 64;

/** Renders `username_template`s; each distinct template is parsed once (the oldest leave past the cap). */
export class UsernameTemplates {
  readonly #funcs: ReadonlyMap<string, TemplateFunction>;
  readonly #parsed = new Map<string, Template>();

  constructor(deps: { clock: Clock; random: Random }) {
    this.#funcs = templateFunctions(deps, { isLdif: false });
  }

  /** The username for a request of `displayName` on role `roleName`; 400 when the template fails or the name is too long. */
  render(source: string, data: { RoleName: string; DisplayName: string }, maxLength: number): string {
    let username: string;
    try {
      username = this.#template(source)
        .render(new Map(Object.entries(data)))
        .toString('utf8');
    } catch (err) {
      if (err instanceof TemplateError) throw new InvalidRequestError(`unable to generate username: ${err.message}`);
      throw err;
    }
    if (username.length > maxLength) {
      throw new InvalidRequestError(
        `unable to generate username: "${username}" is longer than ${maxLength} characters`,
      );
    }
    return username;
  }

  #template(source: string): Template {
    let template = this.#parsed.get(source);
    if (!template) {
      template = Template.parse(source, this.#funcs);
      if (this.#parsed.size >= MAX_CACHED) this.#parsed.delete(this.#parsed.keys().next().value as string);
      this.#parsed.set(source, template);
    }
    return template;
  }
}
