// The stateless wire (2026-07-28) behind the Session interface: discovery through server/discover, the protocol
// fields in every request's _meta, and the reference server in each of its modes, in this process (over HTTP, a
// process: test/e2e/stateless.test.ts).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { wrongRevision } from '../src/checks/kit/check.js';
import { inputProbe } from '../src/checks/stateless/mrtr.js';
import { ConfigError } from '../src/config/yaml-file.js';
import { conform, conformEach } from '../src/run/conform.js';
import { resolveOptions } from '../src/config/options.js';
import { verdict } from '../src/report/summary.js';
import { DiscoveryError, discover } from '../src/discovery/discover.js';
import { loadSuite } from '../src/suite/suite.js';
import { runSuiteWith } from './suite-run.js';
import { REVISIONS, SCHEMA_REVISIONS, STATELESS_REVISION } from '../src/schema/validators.js';
import { resolveTarget } from '../src/target/resolve.js';
import { Session } from '../src/session/session.js';
import { Transcript } from '../src/transcript.js';
import { connect } from '../src/transport/connect.js';
import { type Serve, runConformance } from '../src/index.js';
import { createServer, serveStreams } from '../examples/reference-server/mcp.mjs';
import { appOf } from '../examples/reference-server/http.mjs';
import { createFaultyServer } from './fixtures/servers/faulty-server.mjs';

const open: { session: Session; close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map(async ({ session, close }) => (await session.close(), await close())));
});

/** The reference server in this process, on the wire of `revision` (2026-07-28, or all for both; none: the initialize wire). */
const referenceServe =
  (revision?: string): Serve =>
  (streams) =>
    serveStreams(createServer({ revision }), streams);

/** A session on the reference server of `revision`'s wire, in this process. */
async function reference(revision?: string): Promise<Session> {
  const plan = await resolveTarget({ serve: referenceServe(revision) });
  const connection = connect(plan, { timeoutMs: 5000, probeVersion: REVISIONS[0] });
  const transcript = new Transcript();
  const session = new Session(await connection.open(transcript), transcript, 5000);
  open.push({ session, close: () => connection.close() });
  return session;
}

const sentFrames = (s: Session) =>
  s.transcript.entries
    .filter((e) => e.dir === 'send')
    .map((e) => JSON.parse(e.text) as { method: string; params?: { _meta?: Record<string, unknown> } });

describe('the stateless wire', () => {
  it('discovers through server/discover and sends the protocol fields with every request', async () => {
    const session = await reference(STATELESS_REVISION);
    const profile = await discover(session, STATELESS_REVISION);
    expect(profile).toMatchObject({
      revision: STATELESS_REVISION,
      protocolVersion: STATELESS_REVISION,
      serverInfo: { name: 'mcp-reference-server' },
    });
    expect(profile.tools.length).toBeGreaterThan(1);
    const sent = sentFrames(session);
    expect(sent[0].method).toBe('server/discover');
    expect(sent.map((f) => f.method)).not.toContain('initialize');
    for (const f of sent) {
      expect(f.params?._meta).toMatchObject({
        'io.modelcontextprotocol/protocolVersion': STATELESS_REVISION,
        'io.modelcontextprotocol/clientCapabilities': {},
      });
    }
  });

  it("lets a request's own _meta override the protocol fields", async () => {
    const session = await reference(STATELESS_REVISION);
    await discover(session, STATELESS_REVISION);
    const reply = await session.request('tools/list', {
      _meta: { 'io.modelcontextprotocol/protocolVersion': '1900-01-01' },
    });
    expect(reply.message.error).toMatchObject({
      code: -32022,
      data: { requested: '1900-01-01', supported: [STATELESS_REVISION] },
    });
  });

  it('reaches a dual-era server in both eras', async () => {
    const legacy = await discover(await reference('all'));
    const modern = await discover(await reference('all'), STATELESS_REVISION);
    expect([legacy.revision, modern.revision]).toEqual(['2025-11-25', STATELESS_REVISION]);
    // ask-name asks for input with an InputRequiredResult, which only the stateless wire has; the tools that send the
    // client requests exist on the initialize wire only.
    const asking = ['ask-llm', 'confirm-choice', 'sign-in', 'list-roots'];
    const names = (tools: typeof legacy.tools) => tools.map((t) => String(t.name)).sort();
    expect(names(modern.tools)).toEqual([...names(legacy.tools).filter((n) => !asking.includes(n)), 'ask-name'].sort());
    // greet-asked asks for input the same way: the stateless wire only.
    expect(names(modern.prompts)).toEqual([...names(legacy.prompts), 'greet-asked'].sort());
  });

  it('fails discovery on a server without server/discover, and an initialize-only server stays reachable', async () => {
    await expect(discover(await reference(), STATELESS_REVISION)).rejects.toThrow(DiscoveryError);
    expect((await discover(await reference())).revision).toBe('2025-11-25');
  });

  it('runs a check on the stateless wire only when the check names 2026-07-28', () => {
    expect(wrongRevision(undefined, '2025-06-18')).toBeUndefined();
    expect(wrongRevision(undefined, STATELESS_REVISION)).toMatch(
      /^applies to 2025-11-25, 2025-06-18, 2025-03-26; this run tests 2026-07-28$/,
    );
    expect(wrongRevision([STATELESS_REVISION], STATELESS_REVISION)).toBeUndefined();
  });

  it('runs the checks whose rule holds on both wires under every revision, cases with `revisions: all` included', async () => {
    const { checks } = await loadSuite();
    const revisionsOf = (id: string) => checks.find((c) => c.id === id)?.revisions;
    for (const id of [
      'base/method-not-found',
      'tools/call/invalid-arguments',
      'base/request/null-id',
      'prompts/get/listed',
    ])
      expect(revisionsOf(id), id).toEqual(SCHEMA_REVISIONS);
    for (const id of [
      'ping/respond',
      'lifecycle/initialize/result',
      'logging/set-level/each-level',
      'resources/subscribe/listed',
    ])
      expect(revisionsOf(id), id).toBeUndefined();
  });

  it('judges an outputSchema by the revision: any schema in 2026-07-28, an object schema before', async () => {
    const judged = async (revision: string, server: { revision?: string }) => {
      const plan = await resolveTarget({ serve: createFaultyServer(['array-output-schema'], server) });
      const suite = await loadSuite({ only: ['tools/output-schema/valid'] });
      const report = await runSuiteWith({ plan, suite, timeoutMs: 5000, budgetMs: 60_000, protocolVersion: revision });
      return report.checks.find((c) => c.id === 'tools/output-schema/valid')?.status;
    };
    expect(await judged(STATELESS_REVISION, { revision: STATELESS_REVISION })).toBe('pass');
    expect(await judged('2025-11-25', {})).toBe('fail');
  });

  it('passes a listed prompt that answers -32021 for a capability the request did not declare', async () => {
    const judged = async (faults: string) => {
      const plan = await resolveTarget({ serve: createFaultyServer([faults], { revision: STATELESS_REVISION }) });
      const suite = await loadSuite({ only: ['prompts/get/listed'] });
      const report = await runSuiteWith({
        plan,
        suite,
        timeoutMs: 5000,
        budgetMs: 60_000,
        protocolVersion: STATELESS_REVISION,
      });
      const check = report.checks.find((c) => c.id === 'prompts/get/listed');
      return [check?.status, check?.transcript?.some((e) => e.dir === 'recv' && e.text.includes('"code":-32021'))];
    };
    expect(await judged('prompt-needs-elicitation')).toEqual(['pass', true]);
  });

  it('passes a body without its version refused with -32020 over HTTP, whose header names the version', async () => {
    const app = (await appOf({ revision: STATELESS_REVISION, auth: undefined })) as Awaited<
      ReturnType<typeof appOf>
    > & { http: Server };
    const headerProblem = app.headerProblem.bind(app);
    // Server Validation's mismatch: the MCP-Protocol-Version header names a version the body's _meta lacks.
    app.headerProblem = (req: unknown, msg: { params?: { _meta?: Record<string, unknown> } }) =>
      msg.params?._meta && !('io.modelcontextprotocol/protocolVersion' in msg.params._meta)
        ? 'the body names no version'
        : headerProblem(req, msg);
    await new Promise<void>((resolve) => app.http.listen(0, '127.0.0.1', resolve));
    try {
      const report = await runConformance({
        target: `http://127.0.0.1:${(app.http.address() as AddressInfo).port}/mcp`,
        revision: STATELESS_REVISION,
        only: ['stateless/meta/protocol-version-required', 'stateless/http/meta-missing-400'],
      });
      expect(report.checks.map((c) => [c.id, c.status, /without protocolVersion[^;]*-32020/.test(c.message)])).toEqual([
        ['stateless/meta/protocol-version-required', 'pass', true],
        ['stateless/http/meta-missing-400', 'pass', true],
      ]);
    } finally {
      app.http.closeAllConnections();
      await new Promise((resolve) => app.http.close(resolve));
    }
  });

  it('refuses 2026-07-28 over legacy HTTP+SSE, which has no stateless wire', async () => {
    const run = conform(
      await resolveOptions({ target: 'http://127.0.0.1:9/sse', transport: 'sse', revision: STATELESS_REVISION }),
    );
    await expect(run).rejects.toThrow(ConfigError);
    await expect(run).rejects.toThrow(/no legacy HTTP\+SSE transport/);
  });
});

const verdictOf = (run: { report: Parameters<typeof verdict>[0] }) => verdict(run.report);

describe('--revision auto', () => {
  const judged = async (serve: Serve) =>
    (await conformEach(await resolveOptions({ serve, revision: 'auto', seed: 1, runs: 5 }))).map((r) => [
      r.report.server?.protocolVersion,
      verdict(r.report),
    ]);

  it('tests a dual-era server in both eras, with one verdict each', async () => {
    expect(await judged(referenceServe('all'))).toEqual([
      [STATELESS_REVISION, 'pass'],
      ['2025-11-25', 'pass'],
    ]);
  });

  it("runs a dual-era server's two eras side by side, each on servers of its own", async () => {
    const runs = await conformEach(
      await resolveOptions({ serve: referenceServe('all'), revision: 'auto', seed: 1, runs: 5 }),
    );
    const [first, second] = runs.map((r) => r.report);
    expect(runs.map(verdictOf)).toEqual(['pass', 'pass']);
    expect(Date.parse(second.startedAt)).toBeLessThan(Date.parse(first.startedAt) + first.durationMs);
  });

  it('tests a server of one era once', async () => {
    expect(await judged(referenceServe())).toEqual([['2025-11-25', 'pass']]);
    expect(await judged(referenceServe(STATELESS_REVISION))).toEqual([[STATELESS_REVISION, 'pass']]);
  });

  it('stands for several runs, which conformEach makes: conform runs one revision', async () => {
    await expect(conform(await resolveOptions({ serve: referenceServe(), revision: 'auto' }))).rejects.toThrow(
      /one run per revision/,
    );
  });
});

describe('the input probe of the MRTR checks', () => {
  /** Tools a, b and c, read-only; the stub answers each call after a pause, `slower` later, and counts what is in flight. */
  function probeContext(answers: Record<string, object>, slower: string) {
    let pending = 0;
    let most = 0;
    const tool = (name: string) => ({ name, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } });
    const memo = new Map<string, Promise<unknown>>();
    const ctx = {
      seed: 1,
      toolCalls: { mode: 'safe', allow: [] },
      profile: { capabilities: { tools: {} }, tools: ['a', 'b', 'c'].map(tool) },
      memo: (key: string, fn: () => Promise<unknown>) =>
        memo.has(key) ? memo.get(key) : (memo.set(key, fn()), memo.get(key)),
      async request(_method: string, params: { name: string }) {
        most = Math.max(most, ++pending);
        await new Promise((r) => setTimeout(r, params.name === slower ? 60 : 20));
        pending--;
        const answer = answers[params.name] ?? { result: { content: [] } };
        return { message: { jsonrpc: '2.0', id: 1, ...answer }, sent: {}, entry: {} };
      },
    };
    return { ctx: ctx as unknown as Parameters<typeof inputProbe>[0], most: () => most };
  }
  const asks = { result: { resultType: 'input_required', inputRequests: {} } };

  it('calls the tools side by side, and takes the first in list order that asks for input', async () => {
    const { ctx, most } = probeContext({ b: asks, c: asks }, 'b');
    const probe = await inputProbe(ctx);
    expect(typeof probe === 'object' && probe.tool).toBe('b');
    expect(most()).toBeGreaterThan(1);
  });

  it('says so when no tool asks for input', async () => {
    const { ctx } = probeContext({}, 'a');
    expect(await inputProbe(ctx)).toBe(
      'no tool the run may call (a, b, c) needs a client capability or asks for input',
    );
  });
});
