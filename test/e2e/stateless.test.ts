// The stateless wire of a server the run starts as a process: --revision auto over HTTP.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/options.js';
import { verdict } from '../../src/report/summary.js';
import { conformEach } from '../../src/run/conform.js';
import { REFERENCE } from '../helpers.js';

describe('--revision auto', () => {
  it('runs the eras of an HTTP server it starts side by side, each on a port of its own', async () => {
    const runs = await conformEach(
      await resolveOptions({
        target: [process.execPath, join(REFERENCE, 'http.mjs'), '--port', '{port}', '--revision', 'all'],
        httpUrl: 'http://127.0.0.1:{port}/mcp',
        port: 'auto',
        revision: 'auto',
        seed: 1,
        runs: 5,
      }),
    );
    const [first, second] = runs.map((r) => r.report);
    expect(runs.map((r) => verdict(r.report))).toEqual(['pass', 'pass']);
    expect(first.target.description).not.toBe(second.target.description);
    expect(Date.parse(second.startedAt)).toBeLessThan(Date.parse(first.startedAt) + first.durationMs);
  });
});
