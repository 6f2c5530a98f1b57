// The `mcp-conformance/vitest` helper in a server project's own vitest run: a process of vitest, so in test:e2e.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../src/index.js';
import { FAULTY, ROOT } from '../helpers.js';

interface JsonTest {
  title: string;
  status: 'passed' | 'failed' | 'skipped' | 'pending';
  failureMessages: string[];
}

describe('the vitest helper', () => {
  it('makes one test per check in a server project’s vitest run: failures fail with the triad, skips skip, expected failures and warnings pass', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpc-vitest-'));
    const [baseline, results] = [join(dir, 'baseline.yaml'), join(dir, 'results.json')];
    await writeFile(baseline, '- id: ping/respond\n  reason: known\n');
    const vitest = join(ROOT, 'node_modules/vitest/vitest.mjs');
    const config = join(ROOT, 'test/fixtures/vitest/vitest.config.ts');
    const env = {
      CONFORMANCE_TARGET: FAULTY,
      CONFORMANCE_FAULTS: 'method-not-found-code,bad-tool-name,ping-error',
      CONFORMANCE_BASELINE: baseline,
    };
    const r = await execa(
      process.execPath,
      [vitest, 'run', '--config', config, '--reporter=json', `--outputFile=${results}`],
      { reject: false, env, timeout: 120_000 },
    );
    expect(r.exitCode, String(r.stderr)).toBe(1);
    expect(existsSync(results), String(r.stderr)).toBe(true);
    const tests = (JSON.parse(await readFile(results, 'utf8')) as { testResults: { assertionResults: JsonTest[] }[] })
      .testResults[0].assertionResults;
    const byId = new Map(tests.map((t) => [t.title.split(':')[0], t]));
    // The listed check does fail on this server, so its passing test is the baseline's doing.
    const ping = await runConformance({ target: FAULTY, env: { MCP_FAULTS: 'ping-error' }, only: ['ping/respond'] });
    expect(ping.checks.find((c) => c.id === 'ping/respond')?.status).toBe('fail');

    expect(tests.filter((t) => t.status === 'failed').map((t) => t.title.split(':')[0])).toEqual([
      'base/method-not-found',
    ]);
    const failure = byId.get('base/method-not-found')!.failureMessages.join('\n');
    expect(failure).toContain('requirement:\n  base.method-not-found (MUST) https://modelcontextprotocol.io/');
    expect(failure).toMatch(/expected:\n[\s\S]*-32601[\s\S]*actual:\n[\s\S]*-32603/);
    expect(failure).toContain('transcript:\n');
    expect(byId.get('ping/respond')?.status, 'an expected failure passes').toBe('passed');
    expect(byId.get('tools/names/format')?.status, 'a warning passes').toBe('passed');
    expect(tests.some((t) => t.status === 'skipped')).toBe(true);
    expect(byId.size).toBe(tests.length);
  });
});
