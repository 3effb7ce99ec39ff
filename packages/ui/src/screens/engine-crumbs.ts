import type { Crumb } from '../components/page.js';
import { pathOf } from '../router/match.js';

/** The breadcrumbs of a screen inside an engine: Secrets › `<mount>/` (its home) › … */
export function engineCrumbs(mount: string, home: string, ...more: Crumb[]): Crumb[] {
  return [{ label: 'Secrets', to: '/secrets' }, { label: `${mount}/`, to: pathOf('secrets', mount, home) }, ...more];
}

/** Base64 of text as UTF-8, and back: the API takes plaintext and signing input as base64. */
export function toBase64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

export function fromBase64(b64: string): string {
  return new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
}
