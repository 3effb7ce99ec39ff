/**
 * The 1-based line where `key` is first written as a key or block name in an HCL or JSON
 * config file, so an error about it can say where it is; undefined when it cannot be found.
 */
export function configKeyLine(text: string, key: string): number | undefined {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^\\s*"?${escaped}"?\\s*[={:"]`);
  const index = text.split('\n').findIndex((line) => pattern.test(line));
  return index === -1 ? undefined : index + 1;
}
