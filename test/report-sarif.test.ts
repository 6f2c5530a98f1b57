import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyBaseline, loadBaseline } from '../src/baseline/baseline.js';
import { renderSarif } from '../src/report/sarif.js';
import type { Report } from '../src/schema/generated/report.js';
import { FAULTY, REFERENCE, ROOT, runCli } from './helpers.js';

/**
 * The OASIS SARIF 2.1.0 schema (draft-04) as @microsoft/jest-sarif ships it, with the Ajv 6 that package validates it
 * with (Ajv 8 reads no draft-04): the test's oracle, not the project's.
 */
const fromJestSarif = createRequire(join(ROOT, 'node_modules/@microsoft/jest-sarif/lib/index.js'));
const SCHEMA = fromJestSarif('./schemas/sarif-2.1.0-rtm.5.json') as { title: string };
interface Validator {
  (value: unknown): boolean;
  errors?: unknown[] | null;
}
function sarifValidator(): Validator {
  const Ajv = fromJestSarif('ajv') as new (
    options: object,
  ) => { addMetaSchema(s: object): void; compile(s: object): Validator };
  const ajv = new Ajv({ allErrors: true, schemaId: 'auto', format: 'full' });
  ajv.addMetaSchema(fromJestSarif('ajv/lib/refs/json-schema-draft-04.json') as object);
  return ajv.compile(SCHEMA);
}

interface Sarif {
  version: string;
  runs: {
    tool: {
      driver: {
        name: string;
        rules: {
          id: string;
          helpUri?: string;
          defaultConfiguration: { level: string };
          properties: { requirement: string; level: string };
        }[];
      };
    };
    invocations: { executionSuccessful: boolean }[];
    artifacts: { location: { uri: string } }[];
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      suppressions?: { kind: string; justification: string }[];
      locations: { physicalLocation: { artifactLocation: { uri: string; index: number } } }[];
    }[];
  }[];
}

let faulty: { report: Report; sarif: Sarif; text: string };
let validate: Validator;

beforeAll(async () => {
  validate = sarifValidator();
  const r = await runCli([
    '--seed',
    '1',
    '--runs',
    '10',
    '--revision',
    '2025-11-25',
    '--strict',
    '--env',
    'MCP_FAULTS=method-not-found-code,bad-tool-name',
    FAULTY,
  ]);
  const text = await readFile(join(r.out, 'report.sarif'), 'utf8');
  faulty = { report: r.report!, sarif: JSON.parse(text) as Sarif, text };
});

describe('report.sarif', () => {
  it('is checked against the official schema, which rejects what is not SARIF', () => {
    expect(SCHEMA.title).toContain('SARIF');
    expect(SCHEMA.title).toContain('2.1.0');
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] })).toBe(false);
    expect(validate({ version: '2.0.0', runs: [] })).toBe(false);
  });

  it('is written with the other reports of a failing run, and validates against SARIF 2.1.0', () => {
    expect(validate(faulty.sarif), JSON.stringify(validate.errors)).toBe(true);
    expect(faulty.sarif.version).toBe('2.1.0');
    // The same file with one result's level out of SARIF's set does not.
    const [run] = faulty.sarif.runs;
    expect(validate({ ...faulty.sarif, runs: [{ ...run, results: [{ ...run.results[0], level: 'fatal' }] }] })).toBe(
      false,
    );
  });

  it('has one rule per check, with its level, requirement and spec link; one result per failing or warning check', () => {
    const [run] = faulty.sarif.runs;
    const { checks } = faulty.report;
    expect(run.tool.driver.name).toBe('mcp-conformance');
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(checks.map((c) => c.id));
    const rule = run.tool.driver.rules.find((r) => r.id === 'base/method-not-found')!;
    const check = checks.find((c) => c.id === 'base/method-not-found')!;
    expect(rule).toMatchObject({
      helpUri: check.requirement.spec,
      defaultConfiguration: { level: 'error' },
      properties: { requirement: 'base.method-not-found', level: 'MUST' },
    });
    const failing = checks.filter((c) => c.status === 'fail' || c.status === 'warn');
    expect(failing.length).toBeGreaterThanOrEqual(2);
    expect(run.results.map((r) => r.ruleId)).toEqual(failing.map((c) => c.id));
    for (const r of run.results) expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
    const result = run.results.find((r) => r.ruleId === 'base/method-not-found')!;
    expect(result.level).toBe('error');
    expect(result.message.text).toContain('message: an unknown method → -32603, expected -32601');
    // The server is the artifact every result points at.
    expect(run.artifacts).toEqual([
      {
        location: { uri: expect.stringMatching(/^file:\/\/.*faulty-server\.mjs$/) },
        description: { text: expect.stringContaining('revision 2025-11-25') },
      },
    ]);
    expect(result.locations[0].physicalLocation.artifactLocation).toEqual({
      uri: run.artifacts[0].location.uri,
      index: 0,
    });
    expect(run.invocations[0].executionSuccessful).toBe(true);
  });

  it('suppresses an expected failure with its reason, and keeps a stale entry as an error', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'mcpc-sarif-')), 'b.yaml');
    await writeFile(
      path,
      '- id: base/method-not-found\n  reason: our router\n- id: ping/respond\n  reason: fixed since\n',
    );
    const baseline = await loadBaseline(path);
    const report = {
      ...faulty.report,
      checks: applyBaseline(faulty.report.checks, baseline, { revision: '2025-11-25', transport: 'stdio' }),
    };
    const sarif = JSON.parse(renderSarif(report)) as Sarif;
    expect(validate(sarif), JSON.stringify(validate.errors)).toBe(true);
    const results = new Map(sarif.runs[0].results.map((r) => [r.ruleId, r]));
    expect(results.get('base/method-not-found')?.suppressions).toEqual([
      { kind: 'external', justification: 'our router' },
    ]);
    expect(results.get('ping/respond')).toMatchObject({
      level: 'error',
      message: { text: expect.stringContaining('passes now, but the expected-failures entry ping/respond lists it') },
    });
  });

  it.concurrent('of the reference server has its rules and no result, and validates', async () => {
    const r = await runCli(['--seed', '1', '--runs', '10', REFERENCE]);
    const sarif = JSON.parse(await readFile(join(r.out, 'report.sarif'), 'utf8')) as Sarif;
    expect(validate(sarif), JSON.stringify(validate.errors)).toBe(true);
    expect(sarif.runs[0].results).toEqual([]);
    expect(sarif.runs[0].tool.driver.rules.length).toBe(r.report!.checks.length);
  });
});
