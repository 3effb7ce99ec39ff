import type { Json } from './document.js';
import { InvalidRequestError } from './errors.js';

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;

export interface Page {
  number: number;
  size: number;
}

/**
 * Reads `page[number]` and `page[size]`. Anything that is not a positive whole number is a 400;
 * a size above the maximum is clamped to it, as the established API does, rather than refused.
 */
export function parsePage(query: URLSearchParams): Page {
  return {
    number: readPositive(query, 'page[number]') ?? 1,
    size: Math.min(readPositive(query, 'page[size]') ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
  };
}

function readPositive(query: URLSearchParams, name: string): number | undefined {
  const values = query.getAll(name);
  if (values.length === 0) return undefined;
  const raw = values[0] ?? '';
  if (values.length > 1 || !/^[0-9]{1,9}$/.test(raw) || Number(raw) < 1) {
    throw new InvalidRequestError(`${name} must be a positive whole number`, { source: { parameter: name } });
  }
  return Number(raw);
}

/** The `links` and `meta.pagination` members of a list document for `total` items. */
export function paginationMembers(
  path: string,
  page: Page,
  total: number,
): { links: Record<string, string | null>; meta: { pagination: Record<string, Json> } } {
  // An empty list still has one (empty) page, so `first` and `last` always point somewhere.
  const totalPages = Math.max(1, Math.ceil(total / page.size));
  const link = (n: number) => `${path}?page%5Bnumber%5D=${n}&page%5Bsize%5D=${page.size}`;
  const prev = page.number > 1 ? Math.min(page.number - 1, totalPages) : null;
  const next = page.number < totalPages ? page.number + 1 : null;
  return {
    links: {
      self: link(page.number),
      first: link(1),
      prev: prev === null ? null : link(prev),
      next: next === null ? null : link(next),
      last: link(totalPages),
    },
    meta: {
      pagination: {
        'current-page': page.number,
        'page-size': page.size,
        'prev-page': prev,
        'next-page': next,
        'total-pages': totalPages,
        'total-count': total,
      },
    },
  };
}

/** The items of `all` on `page`; an out-of-range page is empty. */
export function slicePage<T>(all: readonly T[], page: Page): T[] {
  const start = (page.number - 1) * page.size;
  return all.slice(start, start + page.size);
}
