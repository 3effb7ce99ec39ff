import { defineStorage } from '../storage-type.js';
import { InmemStorage } from './inmem.js';

export { InmemStorage } from './inmem.js';

/** `storage "inmem" {}`: nothing survives the process (dev mode and tests). */
export const inmemStorage = defineStorage({
  keys: [],
  parse: () => ({}),
  create: () => new InmemStorage(),
  describe: () => undefined,
});
