import { type EntityFacts, fillTemplate } from '../../logical/identity-template.js';
import type { Operation } from '../../logical/request.js';
import {
  type AclDecision,
  finalize,
  mergeRule,
  NO_MATCH,
  type Permissions,
  parametersAllowed,
  permissionsOf,
  wrappingAllowed,
} from './acl-permissions.js';
import { type Capability, capabilityBitFor, DENY } from './capabilities.js';
import type { PathRule, Policy } from './policy.js';
import { type Candidate, outranks, type SegmentRule, segmentRule, segmentRuleMatches } from './segment-rules.js';

/** Extra facts of a request that some rules look at. */
export interface AclCheckOptions {
  /** The response-wrapping TTL the request asked for, if any (for `min/max_wrapping_ttl`). */
  wrapTtlSeconds?: number;
  /** Leave the parameter rules out (the request's data is not known yet). */
  skipsParameters?: boolean;
}

const ROOT_DECISION: AclDecision = Object.freeze({ allowed: true, capabilities: [], isSudo: true });
const HELP_DECISION: AclDecision = Object.freeze({ allowed: true, capabilities: [], isSudo: false });
/** Per-entity ACLs kept per compiled ACL; beyond this, the oldest is dropped. */
const MAX_ENTITY_ACLS = 256;

/** Compiles policies into one `Acl`. Templated rules are left out until `forEntity` fills them. */
export function compileAcl(policies: readonly Policy[]): Acl {
  return new Acl(policies, undefined);
}

/**
 * The merged rules of a set of policies, compiled once so each check costs a few map
 * lookups: exact paths in a map, prefix rules in a map probed from the longest known
 * prefix length down, and `+` rules grouped by their first segment.
 */
export class Acl {
  readonly isRoot: boolean;
  readonly #policies: readonly Policy[];
  readonly #hasTemplates: boolean;
  readonly #templatesReadAliases: boolean;
  readonly #templatesReadGroups: boolean;
  readonly #exact = new Map<string, Permissions>();
  readonly #prefixes = new Map<string, Permissions>();
  /** Distinct prefix lengths, longest first. */
  #prefixLengths: number[] = [];
  /** `+` rules by literal first segment; `#segmentAny` holds the rest. */
  readonly #segmentByHead = new Map<string, SegmentRule[]>();
  readonly #segmentAny: SegmentRule[] = [];
  #hasSegmentRules = false;
  readonly #byEntity = new Map<string, Acl>();

  /** Use `compileAcl`; `entity` fills templated rules (left out when absent). */
  constructor(policies: readonly Policy[], entity: EntityFacts | undefined) {
    this.#policies = policies;
    this.isRoot = policies.some((p) => p.name === 'root');
    const templates = policies.flatMap((p) => p.paths.filter((r) => r.isTemplated).map((r) => r.path));
    this.#hasTemplates = templates.length > 0;
    // The groups are computed when read: the cache key reads them only when a template may.
    this.#templatesReadAliases = templates.some((t) => t.includes('identity.entity.aliases.'));
    this.#templatesReadGroups = templates.some((t) => t.includes('identity.groups.'));
    this.#compile(policies, entity);
  }

  /** The ACL with templated rules filled for `entity`; this ACL when there is nothing to fill. */
  forEntity(entity: EntityFacts | undefined): Acl {
    if (!entity || !this.#hasTemplates) return this;
    const key = JSON.stringify([
      entity.id,
      entity.name ?? '',
      entity.metadata ?? {},
      this.#templatesReadAliases ? (entity.aliases ?? []) : [],
      this.#templatesReadGroups ? (entity.groups ?? []) : [],
    ]);
    let acl = this.#byEntity.get(key);
    if (!acl) {
      if (this.#byEntity.size >= MAX_ENTITY_ACLS) this.#byEntity.delete(this.#byEntity.keys().next().value as string);
      acl = new Acl(this.#policies, entity);
      this.#byEntity.set(key, acl);
    }
    return acl;
  }

  /** Whether `operation` on `path` (namespace included) is allowed, with the matching rule's capabilities. */
  allowed(
    operation: Operation,
    path: string,
    data?: Readonly<Record<string, unknown>>,
    options: AclCheckOptions = {},
  ): AclDecision {
    if (this.isRoot) return ROOT_DECISION;
    if (operation === 'help') return HELP_DECISION;
    const perms = this.#lookup(stripLeadingSlashes(path), operation === 'list');
    if (!perms) return NO_MATCH;
    if ((perms.bits & capabilityBitFor(operation)) === 0) return perms.refuse;
    if (!wrappingAllowed(perms, options.wrapTtlSeconds)) return perms.refuse;
    const checksParameters =
      operation === 'read' || operation === 'create' || operation === 'update' || operation === 'patch';
    if (checksParameters && !options.skipsParameters && !parametersAllowed(perms, data)) return perms.refuse;
    return perms.grant;
  }

  /**
   * What `sys/capabilities` reports for `path`: `['root']` for root, else the matching
   * rule's capabilities sorted, `['deny']` when none. Looked up as a list would be, so a
   * rule for `foo` also answers for `foo/`.
   */
  capabilities(path: string): Array<Capability | 'root'> {
    if (this.isRoot) return ['root'];
    const perms = this.#lookup(stripLeadingSlashes(path), true);
    return perms ? [...perms.grant.capabilities] : ['deny'];
  }

  /**
   * Whether the token may do anything at or below `mountPath` (namespace included, trailing
   * `/`): what `sys/internal/ui/mounts` asks before showing a mount, so a token limited to
   * `secret/data/app/*` still learns that `secret/` is a KV v2 mount. A rule that denies
   * does not count; a `+` rule counts when its segments can match below the mount.
   */
  hasAccessBelow(mountPath: string): boolean {
    if (this.isRoot) return true;
    const path = stripLeadingSlashes(mountPath);
    const grants = (perms: Permissions | undefined) =>
      perms !== undefined && (perms.bits & DENY) === 0 && perms.bits !== 0;
    if (grants(this.#lookup(path, true))) return true;
    for (const table of [this.#exact, this.#prefixes]) {
      for (const [rulePath, perms] of table) if (rulePath.startsWith(path) && grants(perms)) return true;
    }
    const mountParts = path.replace(/\/$/, '').split('/');
    for (const rule of [...this.#segmentAny, ...[...this.#segmentByHead.values()].flat()]) {
      const isBelow =
        rule.parts.length >= mountParts.length &&
        mountParts.every((part, i) => [part, '+'].includes(rule.parts[i] as string));
      if (isBelow && grants(rule.perms)) return true;
    }
    return false;
  }

  /** Exact, then (lists) exact without the trailing `/`, then non-exact, then (lists) non-exact without it. */
  #lookup(path: string, isList: boolean): Permissions | undefined {
    const trimmed = isList && path.endsWith('/') ? path.slice(0, -1) : undefined;
    return (
      this.#exact.get(path) ??
      (trimmed === undefined ? undefined : this.#exact.get(trimmed)) ??
      this.#nonExact(path) ??
      (trimmed === undefined ? undefined : this.#nonExact(trimmed))
    );
  }

  #nonExact(path: string): Permissions | undefined {
    let best: Candidate | undefined;
    for (const length of this.#prefixLengths) {
      if (length > path.length) continue;
      const prefix = path.slice(0, length);
      const perms = this.#prefixes.get(prefix);
      if (perms) {
        if (!this.#hasSegmentRules) return perms;
        best = { firstWildcard: length, isPrefix: true, wildcards: 0, path: prefix, perms };
        break;
      }
    }
    if (!this.#hasSegmentRules) return undefined;
    const parts = path.split('/');
    for (const rules of [this.#segmentByHead.get(parts[0] as string), this.#segmentAny]) {
      for (const rule of rules ?? []) {
        if ((best === undefined || outranks(rule, best)) && segmentRuleMatches(rule, parts)) best = rule;
      }
    }
    return best?.perms;
  }

  #compile(policies: readonly Policy[], entity: EntityFacts | undefined): void {
    const segment = new Map<string, Permissions>();
    for (const policy of policies) {
      for (const rule of policy.paths) {
        const path = rule.isTemplated ? fillTemplate(rule.path, entity) : rule.path;
        if (path === undefined) continue;
        const table = rule.hasSegmentWildcards ? segment : rule.isPrefix ? this.#prefixes : this.#exact;
        addRule(table, path, rule);
      }
    }
    for (const perms of [...this.#exact.values(), ...this.#prefixes.values(), ...segment.values()]) finalize(perms);
    this.#prefixLengths = [...new Set([...this.#prefixes.keys()].map((p) => p.length))].sort((a, b) => b - a);
    for (const [written, perms] of segment) this.#addSegmentRule(segmentRule(written, perms));
  }

  #addSegmentRule(rule: SegmentRule): void {
    this.#hasSegmentRules = true;
    const head = rule.parts[0] as string;
    // The head segment narrows the search only when it must equal the path's first segment.
    const isLiteralHead = head !== '+' && !(rule.isPrefix && rule.parts.length === 1);
    if (!isLiteralHead) {
      this.#segmentAny.push(rule);
      return;
    }
    const bucket = this.#segmentByHead.get(head);
    if (bucket) bucket.push(rule);
    else this.#segmentByHead.set(head, [rule]);
  }
}

function addRule(table: Map<string, Permissions>, path: string, rule: PathRule): void {
  const existing = table.get(path);
  if (existing) mergeRule(existing, rule);
  else table.set(path, permissionsOf(rule));
}

function stripLeadingSlashes(path: string): string {
  let start = 0;
  while (path.charCodeAt(start) === 47) start++;
  return start === 0 ? path : path.slice(start);
}
