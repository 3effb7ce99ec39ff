export { type FunctionDeps, templateFunctions } from './custom-functions.js';
export { rfc3339 } from './go-time.js';
export { Template, type TemplateData, type TemplateFunction } from './template.js';
export { TemplateError, type Value } from './values.js';
