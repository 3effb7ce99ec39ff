/**
 * HCL1, as HashiCorp Vault, OpenBao and Nomad read their configuration and policies. Written here because
 * npm has no maintained HCL1 parser that fits: @cdktf/hcl2json reads HCL2, which refuses HCL1
 * forms (a block's brace on the next line, JSON flattening); js-hcl-parser and gopher-hcl are
 * GopherJS builds of hashicorp/hcl v1, unmaintained for years, ~300 KB of generated code, without
 * the position of each key (every configuration problem is reported with its line), and
 * js-hcl-parser answers `{}` for text with a syntax error instead of failing.
 */
export { type HclItem, type HclNode, HclSyntaxError, type Position } from './ast.js';
export { type HclBody, type HclDocument, parseHcl } from './document.js';
