/** Offline mode's hostile inputs of bench/hostile/ (see hostileInputs.test.ts): export files of every hostile shape. */
import { describe } from 'node:test';
import { hostileTests } from '../support/hostileTests';

describe('hostile offline inputs (bench/hostile)', () => hostileTests((name) => name.startsWith('offline')));
