import { describe } from 'node:test';
import { InmemStorage } from './inmem.js';
import { storageCases } from './storage.case.js';

describe('InmemStorage', () => storageCases(async () => new InmemStorage()));
