// A few runs of the CLI and the API as a user makes them, one per way in (stdio, a fault, HTTP, both eras, auth): the
// rest of the end-to-end runs are `npm run test:e2e` (test/e2e/).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HTTP_CHECKS } from '../../src/checks/http/checks.js';
import { FRAME_RULES } from '../../src/checks/index.js';
import { HTTP_SESSION_CHECKS } from '../../src/checks/http/sessions.js';
import { HTTP_STREAM_CHECKS } from '../../src/checks/http/streams.js';
import { HTTP_ISOLATION_CHECKS } from '../../src/checks/http/isolation.js';
import { runConformance } from '../../src/index.js';
import { loadSuite } from '../../src/suite/suite.js';
import { differences, FAULTY, notPassing, REFERENCE, ROOT, runCli, statusOf } from '../helpers.js';

const HTTP_REFERENCE = join(ROOT, 'examples/reference-server/http.mjs');
/** The CLI starts the server on a free port and tests it over HTTP. */
const STARTED = ['--http-url', 'http://127.0.0.1:{port}/mcp', '--port', 'auto'];
/** The same generated values in runs that are compared, and fewer of them. */
const SEED = ['--seed', '7', '--runs', '10'];
/** The Streamable HTTP checks, and the frame rules of that transport (they judge every HTTP body). */
const TRANSPORT_CHECKS = [
  ...HTTP_CHECKS,
  ...HTTP_SESSION_CHECKS,
  ...HTTP_STREAM_CHECKS,
  ...HTTP_ISOLATION_CHECKS,
  ...FRAME_RULES.filter((r) => r.id.startsWith('transport/http/')),
];

describe.concurrent('the CLI', () => {
  it('exits 1 with transport/stdio/stdout-only-messages failing on a server with fault banner', async () => {
    const check = 'transport/stdio/stdout-only-messages';
    const r = await runCli(['--seed', '1', '--runs', '10', '--only', check, '--env', 'MCP_FAULTS=banner', FAULTY]);
    expect(r.exitCode).toBe(1);
    expect(statusOf(r.report, check)).toBe('fail');
    expect(r.stdout).toContain(check);
  });

  it('tests a dual-era server in both eras by default, with one verdict each', async () => {
    const r = await runCli([
      '--seed',
      '1',
      '--only',
      'lifecycle/**',
      '--only',
      'base/**',
      '--',
      process.execPath,
      join(REFERENCE, 'server.mjs'),
      '--revision',
      'all',
    ]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('revisions   2026-07-28: pass · 2025-11-25: pass');
    expect(new Set(r.report?.checks.map((c) => c.id.split('/')[0]))).toEqual(new Set(['2026-07-28', '2025-11-25']));
  });
});

describe('the reference server over stdio and over HTTP', () => {
  it('passes everything over stdio (exit 0, both reports written) and over HTTP when the CLI starts it, and the two agree', async () => {
    const [http, stdio] = await Promise.all([
      runCli([...STARTED, ...SEED, '--', 'node', HTTP_REFERENCE]),
      runCli([...SEED, REFERENCE]),
    ]);
    expect(stdio.exitCode, stdio.stdout + stdio.stderr).toBe(0);
    expect(stdio.report?.summary).toMatchObject({ fail: 0, warn: 0, error: 0 });
    expect(stdio.report?.server?.protocolVersion).toBe('2025-11-25');
    await expect(readFile(join(stdio.out, 'junit.xml'), 'utf8')).resolves.toContain('<testsuites');
    expect(stdio.stdout).toContain('lifecycle');
    expect(http.exitCode, http.stdout).toBe(0);
    expect(notPassing(http.report)).toEqual([]);
    // sse-retry judges a stream closed before its response, and the reference closes none early: it skips, saying so
    // (its pass is shown in test/http-faults.test.ts).
    expect(http.report!.checks.filter((c) => c.id.startsWith('transport/http/') && c.status === 'pass')).toHaveLength(
      TRANSPORT_CHECKS.length - 1,
    );
    expect(http.report!.checks.find((c) => c.id === 'transport/http/sse-retry')?.message).toMatch(
      /closed no connection early/,
    );
    const { checks, frameRules } = await loadSuite();
    const stdioOnly = [...checks, ...frameRules].filter((c) => c.transport === 'stdio').map((c) => c.id);
    const elsewhere = http
      .report!.checks.filter(
        (c) => c.status === 'skip' && c.message.endsWith('transport only; this run uses Streamable HTTP'),
      )
      .map((c) => c.id);
    expect(elsewhere.sort()).toEqual(stdioOnly.sort());
    // Over HTTP the reference answers count-slowly at once (it defers answers over stdio only): nothing to cancel. Its
    // tools that ask the client (client/*) exist over stdio only: over HTTP those checks skip.
    expect(
      (await differences(stdio.report!, http.report!)).filter((d) => !/^client\/[^:]+: pass → skip$/.test(d)),
    ).toEqual(['cancellation/request/no-response: pass → skip']);
  });
});

describe('a server that trusts the --auth-server', () => {
  it('passes every authorization check, the issued tokens included', async () => {
    const report = await runConformance({
      httpUrl: 'http://127.0.0.1:{port}/mcp',
      port: 'auto',
      seed: 7,
      runs: 5,
      target: [process.execPath, HTTP_REFERENCE, '--auth'],
      revision: '2025-11-25',
      only: ['auth/**'],
      authServer: true,
    });
    expect(notPassing(report)).toEqual([]);
    const auth = report.checks.filter((c) => c.id.startsWith('auth/'));
    expect(auth.filter((c) => c.status === 'skip').map((c) => c.id)).toEqual(['auth/metadata/no-offline-access']);
  });
});
