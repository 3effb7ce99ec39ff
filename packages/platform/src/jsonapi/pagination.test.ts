import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from './errors.js';
import { paginationMembers, parsePage, slicePage } from './pagination.js';

const page = (qs: string) => parsePage(new URLSearchParams(qs));

describe('pagination', () => {
  it('defaults to page 1 of 20 and clamps the size to 100', () => {
    assert.deepEqual(page(''), { number: 1, size: 20 });
    assert.deepEqual(page('page[number]=3&page[size]=101'), { number: 3, size: 100 });
  });

  it('refuses anything but one positive whole number per parameter', () => {
    for (const qs of [
      'page[size]=0',
      'page[number]=-2',
      'page[number]=x',
      'page[size]=2.0',
      'page[number]=1&page[number]=2',
    ]) {
      assert.throws(() => page(qs), InvalidRequestError, qs);
    }
  });

  it('gives an empty list one page and null neighbours', () => {
    const { meta, links } = paginationMembers('/x', { number: 1, size: 20 }, 0);
    assert.deepEqual(meta.pagination, {
      'current-page': 1,
      'page-size': 20,
      'prev-page': null,
      'next-page': null,
      'total-pages': 1,
      'total-count': 0,
    });
    assert.equal(links.last, '/x?page%5Bnumber%5D=1&page%5Bsize%5D=20');
    assert.deepEqual(slicePage([], { number: 1, size: 20 }), []);
  });

  it('points prev of a page past the end at the last page', () => {
    const { meta } = paginationMembers('/x', { number: 7, size: 2 }, 5);
    assert.equal(meta.pagination['prev-page'], 3);
    assert.equal(meta.pagination['next-page'], null);
    assert.deepEqual(slicePage([1, 2, 3, 4, 5], { number: 3, size: 2 }), [5]);
  });
});
