import { tier } from './vitest.config.js';

/** `npm run test:e2e`: the tests that start server processes (see vitest.config.ts). */
export default tier(['test/e2e/**/*.test.ts']);
