/** JSON:API documents: the media type, resource objects, includes and the error bodies. @module */
/** The media type of every API request and response (JSON:API). */
export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Attributes = Record<string, Json>;

export interface ResourceIdentifier {
  id: string;
  type: string;
}

export interface Relationship {
  data?: ResourceIdentifier | null;
  links?: { related: string };
}

export interface ResourceObject extends ResourceIdentifier {
  attributes: Attributes;
  relationships?: Record<string, Relationship>;
  links?: { self: string };
}

export interface Document {
  data: ResourceObject | ResourceObject[];
  included?: ResourceObject[];
  links?: Record<string, string | null>;
  meta?: Record<string, Json>;
}

/** ISO 8601 in UTC with milliseconds and `Z`, as the API promises for every timestamp. */
export function timestamp(ms: number): string;
export function timestamp(ms: number | null): string | null;
export function timestamp(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
