/**
 * The line of the policy text that the server's parse error is about: the HCL parser's
 * `At 3:5: …`, the policy checker's `… on line 3`, or else the line where the value it quotes
 * (`invalid capability "raed"`, `path "secret/*": …`) is written.
 */
export function errorLineOf(message: string, text: string): number | undefined {
  const at = /\bAt (\d+):\d+:/.exec(message) ?? /\bon line (\d+)/.exec(message);
  if (at?.[1]) return Number(at[1]);
  const lines = text.split('\n');
  const quoted = [...message.matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? '');
  // The last quoted value is the most specific (`path "a/*": invalid capability "raed"`).
  for (const value of quoted.reverse()) {
    const i = lines.findIndex((l) => l.includes(`"${value}"`));
    if (i >= 0) return i + 1;
  }
  return undefined;
}
