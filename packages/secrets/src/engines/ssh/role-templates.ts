import { InvalidRequestError } from '../../logical/errors.js';
import { type EntityFacts, fillTemplate, isTemplate } from '../../logical/identity-template.js';
import type { SshRole } from './stores.js';

/** Comma-separated entries, trimmed, empty ones and repeats dropped. */
export const commaList = (text: string) => [
  ...new Set(
    text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];

/**
 * The entries of `allowed_users` or `allowed_domains` with identity templates filled from the
 * caller's entity (when `isTemplated`, i.e. the role's `*_template` flag). Each entry is filled
 * on its own: one the caller's identity cannot fill (no entity, a missing alias or metadata key)
 * allows nothing, while the other entries still apply. Unless the role has
 * `allow_commas_in_identity_templates`, a value with a comma fills nothing, so an entity name
 * cannot add principals; with it, the filled value is split into several.
 */
export function allowedEntries(
  role: SshRole,
  text: string,
  isTemplated: boolean,
  entity: EntityFacts | undefined,
): string[] {
  if (!isTemplated) return commaList(text);
  const allowCommas = role.allow_commas_in_identity_templates === true;
  return commaList(text).flatMap((entry) => {
    if (!isTemplate(entry)) return [entry];
    const filled = fillTemplate(entry, entity, { blocked: allowCommas ? [] : [','] });
    return filled === undefined ? [] : commaList(filled);
  });
}

/** `default_user`, filled when `default_user_template` is set; `undefined` when it cannot be. */
export function filledDefaultUser(role: SshRole, entity: EntityFacts | undefined): string | undefined {
  if (!role.default_user_template || !isTemplate(role.default_user)) return role.default_user;
  return fillTemplate(role.default_user, entity);
}

/** `default_user`, filled when `default_user_template` is set; 400 when it cannot be. */
export function defaultUserOf(role: SshRole, entity: EntityFacts | undefined): string {
  const filled = filledDefaultUser(role, entity);
  if (filled === undefined) throw unrenderable(role.default_user, entity);
  return filled;
}

/** The result of filling `default_extensions`. */
export interface FilledExtensions {
  extensions: Map<string, string>;
  /** Some templated values were left out because the caller has no entity. */
  isMissingEntity: boolean;
}

/**
 * `default_extensions` with templated values filled when `default_extensions_template` is set.
 * As established, a caller without an entity gets the certificate without those extensions
 * (and a warning); one whose entity cannot fill a value is refused (400).
 */
export function defaultExtensionsOf(role: SshRole, entity: EntityFacts | undefined): FilledExtensions {
  const extensions = new Map<string, string>();
  let isMissingEntity = false;
  for (const [name, value] of Object.entries(role.default_extensions)) {
    if (!role.default_extensions_template || !isTemplate(value)) {
      extensions.set(name, value);
    } else if (!entity) {
      isMissingEntity = true;
    } else {
      const filled = fillTemplate(value, entity);
      if (filled === undefined) throw unrenderable(value, entity);
      extensions.set(name, filled);
    }
  }
  return { extensions, isMissingEntity };
}

function unrenderable(template: string, entity: EntityFacts | undefined): InvalidRequestError {
  const why = entity ? 'no value could be found for one of the template directives' : 'the token has no entity';
  return new InvalidRequestError(`template '${template}' could not be rendered -> ${why}`);
}
