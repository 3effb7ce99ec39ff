/**
 * HCL → JSON through HashiCorp's own parser (compiled to WebAssembly). Loaded on first
 * use: the wasm runtime costs tens of MiB, and an agent without a config file or ACL
 * policies never needs it.
 */
export async function parseHcl(fileName: string, text: string): Promise<Record<string, unknown>> {
  const { parse } = await import('@cdktf/hcl2json');
  return (await parse(fileName, text)) as Record<string, unknown>;
}
