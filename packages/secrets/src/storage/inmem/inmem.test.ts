import { describe } from 'node:test';
import { storageCases } from '../storage.case.js';
import { InmemStorage } from './inmem.js';

describe('InmemStorage', () => storageCases(async () => new InmemStorage()));
