import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, OutputError, TargetError, runConformance, verdict } from '../../src/index.js';
import { FAULTY, REFERENCE, ROOT } from '../helpers.js';

describe.concurrent('runConformance', () => {
  it('tests a server path and returns the report model, writing no files unless asked', async () => {
    // The model is what is tested: a few checks make it (the reference server passes the whole suite in
    // test/e2e/faults.test.ts and through the CLI in test/e2e/cli.test.ts).
    const report = await runConformance({
      target: REFERENCE,
      timeout: 5,
      only: ['lifecycle/**', 'ping/**', 'tools/names/**'],
    });
    expect(verdict(report)).toBe('pass');
    expect(report.summary).toMatchObject({ fail: 0, warn: 0, error: 0 });
    expect(report.server?.name).toBe('mcp-reference-server');
    expect(report.checks.length).toBe(Object.values(report.summary).reduce((a, b) => a + b, 0));
  });

  it('takes a command array, the CLI’s options, and writes the reports to out', async () => {
    const out = await mkdtemp(join(tmpdir(), 'mcpc-api-'));
    const baseline = join(out, 'baseline.yaml');
    await writeFile(baseline, '- id: base/method-not-found\n  reason: known\n');
    const report = await runConformance({
      target: [process.execPath, FAULTY],
      env: { MCP_FAULTS: 'method-not-found-code,bad-tool-name' },
      strict: true,
      expectedFailures: baseline,
      only: ['base/**', 'tools/names/**'],
      out,
    });
    expect(report.strict).toBe(true);
    expect(report.checks.some((c) => c.id.startsWith('lifecycle/'))).toBe(false);
    expect(report.checks.find((c) => c.id === 'base/method-not-found')).toMatchObject({
      status: 'fail',
      baseline: { reason: 'known' },
    });
    expect(report.checks.find((c) => c.id === 'tools/names/format')?.status).toBe('fail');
    expect(verdict(report)).toBe('fail');
    expect(JSON.parse(await readFile(join(out, 'report.json'), 'utf8'))).toEqual(report);
  });

  it('tests a dual-era server in both eras by default: one report, check ids prefixed with the revision', async () => {
    const report = await runConformance({
      target: [process.execPath, join(REFERENCE, 'server.mjs'), '--revision', 'all'],
      only: ['base/jsonrpc/version'],
    });
    expect(report.server).toBeUndefined();
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['2026-07-28/base/jsonrpc/version', 'pass'],
      ['2025-11-25/base/jsonrpc/version', 'pass'],
    ]);
  });

  it('rejects mistakes with one-line errors the caller can tell apart', async () => {
    await expect(runConformance({ target: REFERENCE, budget: 0 })).rejects.toThrow(
      new ConfigError('option budget: must be > 0'),
    );
    await expect(runConformance({ target: REFERENCE, expectedFailures: '/no/such.yaml' })).rejects.toBeInstanceOf(
      ConfigError,
    );
    await expect(runConformance({ target: join(ROOT, 'no-such-server.js') })).rejects.toBeInstanceOf(TargetError);
    await expect(runConformance({})).rejects.toBeInstanceOf(TargetError);
  });

  it('rejects an out folder it cannot write before any server starts, in one line naming the folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpc-api-out-'));
    const file = join(dir, 'a-file');
    await writeFile(file, '');
    const started = join(dir, 'server-started');
    const target = [process.execPath, '-e', `require('node:fs').writeFileSync(${JSON.stringify(started)}, '')`];
    const err = (await runConformance({ target, out: join(file, 'reports') }).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(OutputError);
    expect(err.message).toBe(
      `option out ${join(file, 'reports')}: cannot write reports into this folder (ENOTDIR: not a directory)`,
    );
    expect(existsSync(started)).toBe(false);
  });
});
