import { UpstreamError } from '../../logical/errors.js';

/**
 * The body of a third party's answer as text, refused (502) beyond `maxBytes`: an auth method
 * reads answers of services it does not control, and a huge one must not exhaust memory.
 */
export async function boundedText(response: Response, maxBytes: number, service: string): Promise<string> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
    if (chunk.done) break;
    total += chunk.value.length;
    if (total > maxBytes) {
      await reader?.cancel();
      throw new UpstreamError(`${service} answer too large`);
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
