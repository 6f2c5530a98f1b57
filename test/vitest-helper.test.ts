// The suite inside this project's own vitest run, as a server project would use it: one test per check.
import { defineConformanceSuite } from '../src/vitest.js';
import { REFERENCE } from './helpers.js';

defineConformanceSuite({ name: 'the reference server through the vitest helper', target: REFERENCE, timeout: 5 });
