// The Skills extension's checks on the reference server, in this process: over the stdio wire and over Streamable
// HTTP (the app served in this worker), each check passing; on the initialize wire and without the extension, skipped.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SKILLS_CHECKS } from '../src/checks/skills/checks.js';
import { frontmatterOf, nameProblem, skillPath } from '../src/checks/skills/format.js';
import { runConformance } from '../src/index.js';
import type { Report } from '../src/schema/generated/report.js';
import { STATELESS_REVISION } from '../src/schema/validators.js';
import { loadSuite } from '../src/suite/suite.js';
import { resolveTarget } from '../src/target/resolve.js';
import { createHttpServer } from '../examples/reference-server/http.mjs';
import { createServer, serveStreams } from '../examples/reference-server/mcp.mjs';
import { runSuiteWith } from './suite-run.js';

const IDS = SKILLS_CHECKS.map((c) => c.id);
/** The skills checks and the frame rule that validates their results. */
const ONLY = [...IDS, 'schema/results'];

async function inProcess(revision: string | undefined, disable: string[] = []): Promise<Report> {
  const plan = await resolveTarget({
    serve: (streams) => {
      const server = createServer({ revision });
      for (const capability of disable) delete server.capabilities[capability];
      serveStreams(server, streams);
    },
  });
  return runSuiteWith({
    plan,
    protocolVersion: revision ?? '2025-11-25',
    suite: await loadSuite({ only: ONLY }),
    timeoutMs: 5000,
  });
}

const statuses = (report: Report) => Object.fromEntries(report.checks.map((c) => [c.id, c.status]));
const notPassing = (report: Report) =>
  report.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.status} ${c.message}`);

describe('the Skills checks on the reference server', () => {
  it('all pass over the stdio wire (in this process), 2026-07-28', async () => {
    const report = await inProcess(STATELESS_REVISION);
    expect(notPassing(report)).toEqual([]);
    expect(report.checks.map((c) => c.id)).toEqual(expect.arrayContaining(IDS));
  });

  it('all pass over Streamable HTTP (the app served in this worker), 2026-07-28', async () => {
    // createHttpServer adds `http` after building the app object, which the type inferred from JavaScript does not see.
    const app = createHttpServer({ revision: STATELESS_REVISION }) as unknown as { http: Server };
    await new Promise<void>((resolve) => app.http.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = app.http.address() as AddressInfo;
      const report = await runConformance({
        target: `http://127.0.0.1:${port}/mcp`,
        revision: STATELESS_REVISION,
        only: ONLY,
      });
      expect(notPassing(report)).toEqual([]);
      expect(report.checks.map((c) => c.id)).toEqual(expect.arrayContaining(IDS));
    } finally {
      app.http.closeAllConnections();
      await new Promise((resolve) => app.http.close(resolve));
    }
  });

  it('skip on the initialize wire, where the extension is not specified', async () => {
    const report = await inProcess(undefined);
    const s = statuses(report);
    for (const id of IDS) expect(s[id], id).toBe('skip');
    expect(report.checks.find((c) => c.id === IDS[0])?.message).toMatch(/applies to 2026-07-28/);
  });

  it('skip with the reason on a server that does not declare the extension', async () => {
    const report = await inProcess(STATELESS_REVISION, ['resources']);
    for (const c of report.checks.filter((c) => IDS.includes(c.id))) {
      expect(c.status, c.id).toBe('skip');
      expect(c.message, c.id).toMatch(/does not declare io\.modelcontextprotocol\/skills/);
    }
  });
});

describe('the skill format', () => {
  it('finds the name in the skill path', () => {
    expect(skillPath('skill://acme/billing/refunds/SKILL.md')).toEqual({
      root: 'skill://acme/billing/refunds',
      name: 'refunds',
    });
    expect(skillPath('github://o/r/skills/x/SKILL.md')).toEqual({ root: 'github://o/r/skills/x', name: 'x' });
    expect(skillPath('skill://refunds')).toHaveProperty('problem');
    expect(skillPath('skill://SKILL.md')).toHaveProperty('problem');
    expect(skillPath('refunds/SKILL.md')).toHaveProperty('problem');
  });

  it('keeps the Agent Skills naming rules', () => {
    for (const ok of ['a', 'git-workflow', 'pdf2text', 'x'.repeat(64)]) expect(nameProblem(ok), ok).toBeUndefined();
    for (const bad of ['', 'Git', 'a_b', '-a', 'a-', 'a--b', 'x'.repeat(65), 'é'])
      expect(nameProblem(bad), bad).toBeDefined();
  });

  it('parses YAML frontmatter, and says why there is none', () => {
    expect(frontmatterOf('---\nname: a\ndescription: "b: c"\nmetadata:\n  v: 1\n---\n# body')).toEqual({
      value: { name: 'a', description: 'b: c', metadata: { v: 1 } },
    });
    expect(frontmatterOf('---\r\nname: a\r\n---\r\n')).toEqual({ value: { name: 'a' } });
    expect(frontmatterOf('# no frontmatter')).toHaveProperty('problem');
    expect(frontmatterOf('---\nname: a\n')).toHaveProperty('problem');
    expect(frontmatterOf('---\nname: [a\n---\n')).toHaveProperty('problem');
    expect(frontmatterOf('---\n- a\n---\n')).toHaveProperty('problem');
  });
});
