// The reference server in the test's own process and as a process: the same report, but for the checks that judge a
// process (they skip in-process).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NEEDS_PROCESS } from '../../src/checks/kit/check.js';
import { runConformance } from '../../src/index.js';
import { createServer, serveStreams } from '../../examples/reference-server/mcp.mjs';
import { REFERENCE } from '../helpers.js';

describe('the reference server in-process and over stdio', () => {
  it('gets the same checks with the same statuses in every revision, but for the checks that need a process', async () => {
    const [inProcess, stdio] = await Promise.all([
      runConformance({
        serve: (streams) => serveStreams(createServer({ revision: 'all' }), streams),
        revision: 'all',
        seed: 1,
      }),
      runConformance({
        target: [process.execPath, join(REFERENCE, 'server.mjs'), '--revision', 'all'],
        revision: 'all',
        seed: 1,
      }),
    ]);
    expect(inProcess.target.description).toContain('(in-process)');
    const processOnly = inProcess.checks.filter((c) => c.message === NEEDS_PROCESS).map((c) => c.id);
    // Two checks in each of the four revisions.
    expect(processOnly).toHaveLength(8);
    const statuses = (r: typeof stdio) =>
      r.checks.filter((c) => !processOnly.includes(c.id)).map((c) => `${c.id}: ${c.status}`);
    expect(statuses(inProcess)).toEqual(statuses(stdio));
    expect(stdio.checks.filter((c) => processOnly.includes(c.id)).map((c) => c.status)).toEqual(Array(8).fill('pass'));
  });
});
