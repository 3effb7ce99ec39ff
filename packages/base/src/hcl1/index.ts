export { type HclItem, type HclNode, HclSyntaxError, type Position } from './ast.js';
export { type HclBody, type HclDocument, parseHcl } from './document.js';
