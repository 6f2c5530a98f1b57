// A client run: each scenario gets its own test server and its own client (a process, a few side by side, or a
// function in the caller's process), then every client-side check judges every scenario it applies to, one result per
// check.
import { availableParallelism } from 'node:os';
import { CLIENT_CHECKS, CLIENT_SCENARIOS } from '../../checks/client-side/index.js';
import { type Outcome, worstOf } from '../../checks/kit/check.js';
import { type ClientCheckDef, type ScenarioRecord, appliesTo, where } from '../../checks/kit/client-check.js';
import { citing } from '../../checks/kit/requirement.js';
import type { CheckResult, Report } from '../../schema/generated/report.js';
import { summarize } from '../../report/summary.js';
import { nearestName, selects } from '../../suite/glob.js';
import { type ClientExit, runClientProcess } from '../../transport/client-process.js';
import { Conversation, STATELESS } from '../../transport/test-server/conversation.js';
import { httpTestServer } from '../../transport/test-server/endpoint.js';
import type { TestServer } from '../../transport/test-server/http.js';
import type { Scenario } from '../../transport/test-server/scenario.js';
import { type LocalServerProcess, StdioTestServer } from '../../transport/test-server/stdio.js';
import { TOOL } from '../../version.js';
import { isObject } from '../../json.js';
import { checkResult } from '../result.js';
import { BROWSER_COMMAND, OAuthRig } from '../../auth/oauth-rig.js';
import { SCENARIOS as AUTH_SCENARIOS, type AuthScenario, mcpScenarioOf } from '../../auth/scenarios.js';
import { CLIENT_AUTH_CHECKS } from '../../checks/client-side/auth.js';
import { redact } from '../../transport/secrets.js';
import { clientOverOtherTransport } from '../../skip-reason.js';

/** What a client in the caller's process gets: the same contract as a process. */
export interface ClientContract {
  /** The test server's URL (Streamable HTTP); empty over stdio. */
  url: string;
  /** Over stdio: starts the test server as `child_process.spawn` would (each call is its own session). */
  spawn?: () => LocalServerProcess;
  scenario: string;
  context: Record<string, unknown>;
  protocolVersion: string;
  signal: AbortSignal;
}

export interface ClientRunOptions {
  /** The client command (a process per scenario), or a function that plays the client in this process. */
  client: { command: string; args: string[] } | ((contract: ClientContract) => Promise<void>);
  /** How the client reaches the test server: `stdio` when a command has `{server}` (default: http, or stdio then). */
  transport?: 'http' | 'stdio';
  /** Revisions to run at: `auto` (each scenario at every revision it has), or one. */
  revision?: string;
  /** Scenario names (default: every one). */
  scenarios?: string[];
  only?: string[];
  skip?: string[];
  /** How long the test server waits for an answer to a request it sent the client (ms). */
  timeoutMs?: number;
  /** A scenario's budget (ms): the client is stopped when it is spent. */
  scenarioMs?: number;
  seed?: number;
  strict?: boolean;
  signal?: AbortSignal;
  /** Also run the authorization scenarios (auth/*): `core` (core and draft tiers) or `all` (with the extensions). */
  auth?: 'core' | 'all';
  /** Called with each scenario's test server before it listens: mount routes, add gates (the authorization side). */
  setup?: (server: TestServer, conv: Conversation) => void;
  /** Client processes that may run at once (default and at most: one a core). */
  maxClients?: number;
  /** Called when a scenario ends. */
  onScenario?: (record: ScenarioRecord) => void;
}

/** What a client run is: which scenario at which revision. */
export function plan(options: Pick<ClientRunOptions, 'revision' | 'scenarios' | 'transport'>): [Scenario, string][] {
  const names = options.scenarios;
  const unknown = names?.filter((n) => !CLIENT_SCENARIOS.some((s) => s.name === n)) ?? [];
  if (unknown.length > 0) {
    // Authorization scenarios are names too: a misspelt auth/… one is answered with its nearest.
    const known = [...CLIENT_SCENARIOS, ...AUTH_SCENARIOS].map((s) => s.name);
    throw new Error(
      `unknown scenario ${unknown.map((n) => `${n} (did you mean ${nearestName(n, known)}?)`).join(', ')}; \`mcp-conformance list --client\` lists every scenario`,
    );
  }
  const transport = options.transport ?? 'http';
  const elsewhere = CLIENT_SCENARIOS.filter((s) => names?.includes(s.name) && s.transport && s.transport !== transport);
  if (elsewhere.length > 0)
    throw new Error(
      `scenario ${elsewhere.map((s) => s.name).join(', ')} does not run over ${transport}: it is about ${elsewhere[0]?.transport === 'http' ? 'Streamable HTTP' : 'stdio'} alone`,
    );
  const picked = CLIENT_SCENARIOS.filter(
    (s) => (!names || names.includes(s.name)) && (!s.transport || s.transport === transport),
  );
  const revision = options.revision ?? 'auto';
  return picked.flatMap((s) =>
    revision === 'auto' || revision === 'all'
      ? s.revisions.map((r) => [s, r] as [Scenario, string])
      : s.revisions.includes(revision) || (s.revisions.includes('2025-11-25') && revision !== STATELESS)
        ? [[s, revision] as [Scenario, string]]
        : [],
  );
}

/** An authorization scenario to run (auth/…), and whether it was named (then a draft or extension failure counts). */
export interface AuthPick {
  scenario: AuthScenario;
  /** The revision of this run of it (MCP_CONFORMANCE_PROTOCOL_VERSION). */
  revision: string;
  counted: boolean;
}

/**
 * Runs one scenario: its test server, its client, until the client ends or its budget is spent. An authorization
 * scenario mounts the suite's protected resource on the test server and runs its authorization server beside it.
 */
export async function runScenario(
  scenario: Scenario,
  revision: string,
  options: ClientRunOptions,
  auth?: AuthPick,
): Promise<ScenarioRecord> {
  const conv = new Conversation(scenario, revision, options.timeoutMs ?? 5000);
  const { server, state } = httpTestServer(conv);
  // The client stops when the run is interrupted, or when the rig finds it looping on 403s.
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  if (options.signal?.aborted) stop.abort();
  options.signal?.addEventListener('abort', interrupt, { once: true });
  const rig = auth && (await OAuthRig.start(auth.scenario)).mount(server);
  // The JWTs some authorization scenarios hand the client name their servers' origins: known once they listen.
  if (rig && Object.keys(rig.context).length)
    scenario = { ...scenario, context: { ...scenario.context, ...rig.context } };
  if (rig)
    rig.onLoop = () => {
      if (stop.signal.aborted) return;
      conv.transcript.add('event', 'the client kept authorizing after 403 insufficient_scope: stopped');
      stop.abort();
    };
  options.setup?.(server, conv);
  const url = await server.listen();
  conv.origin = server.origin;
  const budgetMs = options.scenarioMs ?? 10_000;
  let exit: ClientExit;
  try {
    if (typeof options.client === 'function')
      exit = await inProcess(options.client, { url }, scenario, revision, budgetMs, conv, stop.signal);
    else {
      const { command, args } = options.client;
      const withUrl = args.some((a) => a.includes('{url}'))
        ? args.map((a) => a.replaceAll('{url}', url))
        : [...args, url];
      exit = await runClientProcess({
        command,
        args: withUrl,
        env: {
          MCP_CONFORMANCE_SCENARIO: scenario.name,
          MCP_CONFORMANCE_CONTEXT: JSON.stringify(scenario.context),
          MCP_CONFORMANCE_PROTOCOL_VERSION: revision,
          ...(rig && { BROWSER: BROWSER_COMMAND }),
        },
        budgetMs,
        transcript: conv.transcript,
        signal: stop.signal,
      });
    }
  } finally {
    options.signal?.removeEventListener('abort', interrupt);
    await server.close();
    await rig?.close();
  }
  const record: ScenarioRecord = {
    scenario,
    revision,
    transport: 'http',
    conv,
    http: { exchanges: server.exchanges, state },
    exit,
    ...(rig && auth && { auth: { scenario: auth.scenario, rig, counted: auth.counted } }),
  };
  options.onScenario?.(record);
  return record;
}

/** How long the run waits, once a client exited, for the stdio servers it started to see their stdin close. */
const SETTLE_MS = 3000;

/**
 * Runs one scenario over stdio: the client gets `{server}` (a process) or `spawn` (in this process), and each start of
 * the server is its own session, so its own record. A client that never started the server leaves one empty record.
 */
export async function runStdioScenario(
  scenario: Scenario,
  revision: string,
  options: ClientRunOptions,
): Promise<ScenarioRecord[]> {
  const timeoutMs = options.timeoutMs ?? 5000;
  // The first session's conversation also keeps the client process's own lines (spawn, stderr, exit).
  const first = new Conversation(scenario, revision, timeoutMs);
  let used = false;
  const server = new StdioTestServer(() =>
    used ? new Conversation(scenario, revision, timeoutMs) : ((used = true), first),
  );
  await server.listen();
  const budgetMs = options.scenarioMs ?? 10_000;
  let exit: ClientExit;
  try {
    if (typeof options.client === 'function')
      exit = await inProcess(
        options.client,
        { url: '', spawn: () => server.spawn() },
        scenario,
        revision,
        budgetMs,
        first,
        options.signal,
      );
    else
      exit = await runClientProcess({
        command: options.client.command,
        args: options.client.args.map((a) => a.replaceAll('{server}', server.command)),
        env: {
          MCP_CONFORMANCE_SCENARIO: scenario.name,
          MCP_CONFORMANCE_CONTEXT: JSON.stringify(scenario.context),
          MCP_CONFORMANCE_PROTOCOL_VERSION: revision,
        },
        budgetMs,
        transcript: first.transcript,
        signal: options.signal,
        settle: () => server.settle(SETTLE_MS).then(() => server.stopOpen()),
      });
  } finally {
    await server.close();
  }
  const records: ScenarioRecord[] = (server.sessions.length > 0 ? server.sessions : [undefined]).map((s) => ({
    scenario,
    revision,
    transport: 'stdio' as const,
    conv: s?.conv ?? first,
    ...(s && { stdio: s.state }),
    exit,
  }));
  for (const r of records) options.onScenario?.(r);
  return records;
}

async function inProcess(
  client: (contract: ClientContract) => Promise<void>,
  reach: Pick<ClientContract, 'url' | 'spawn'>,
  scenario: Scenario,
  revision: string,
  budgetMs: number,
  conv: Conversation,
  outer?: AbortSignal,
): Promise<ClientExit> {
  const t0 = performance.now();
  const abort = new AbortController();
  const stop = () => abort.abort();
  outer?.addEventListener('abort', stop, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<'stopped'>((resolve) => {
    timer = setTimeout(() => {
      abort.abort();
      resolve('stopped');
    }, budgetMs);
    abort.signal.addEventListener('abort', () => resolve('stopped'), { once: true });
    if (outer?.aborted) abort.abort();
  });
  try {
    const ended = await Promise.race([
      client({
        ...reach,
        scenario: scenario.name,
        context: scenario.context,
        protocolVersion: revision,
        signal: abort.signal,
      }).then(
        () => 0,
        (err: Error) => {
          conv.transcript.add('stderr', `client threw: ${err.message}`);
          return 1;
        },
      ),
      budget,
    ]);
    return {
      code: ended === 'stopped' ? null : ended,
      signal: null,
      stopped: ended === 'stopped',
      durationMs: performance.now() - t0,
    };
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', stop);
  }
}

const TRANSPORT_NAMES = { http: 'Streamable HTTP', stdio: 'stdio' } as const;

/** One result per check: the worst of the scenarios it judged, or a skip naming why none applied. */
export function judge(checks: readonly ClientCheckDef[], records: readonly ScenarioRecord[]): CheckResult[] {
  return checks.map((def) => {
    const t0 = performance.now();
    const outcomes: Outcome[] = [];
    const reasons: string[] = [];
    const errors: string[] = [];
    for (const r of records) {
      if (!appliesTo(def, r)) {
        // Left out for its transport alone: the skip says so.
        if (def.transport && appliesTo({ ...def, transport: undefined }, r))
          reasons.push(`${where(r)}: over ${r.transport}; this check judges ${TRANSPORT_NAMES[def.transport]}`);
        continue;
      }
      // The OAuth exchanges are judged whatever MCP wire the client then speaks: the rules of the revision hold for them.
      const era = def.readsExchanges ? undefined : eraRefused(r);
      if (era) {
        reasons.push(era);
        continue;
      }
      // A flow that broke before MCP (a refused token request, a client that gave up): what it did ask is judged by
      // the checks that read HTTP exchanges; the checks of MCP frames have nothing to read, and say why.
      if (!def.readsExchanges && r.transport === 'http' && r.conv.frames.length === 0) {
        reasons.push(`${where(r)}: no MCP message reached the test server (${sawOnly(r)})`);
        continue;
      }
      let o: Outcome;
      try {
        o = def.judge(r);
      } catch (err) {
        o = {
          status: 'fail',
          message: `${r.scenario.name} @ ${r.revision}: the check broke: ${(err as Error).message}`,
        };
        errors.push(o.message);
        continue;
      }
      if (o.status === 'skip') reasons.push(o.message);
      else outcomes.push(o);
    }
    // A run over the other transport: one reason, not one per scenario.
    if (def.transport && records.length > 0 && records.every((r) => r.transport !== def.transport))
      reasons.splice(
        0,
        reasons.length,
        clientOverOtherTransport(records[0]?.transport, TRANSPORT_NAMES[def.transport]),
      );
    const revision = records[0]?.revision ?? '2025-11-25';
    const named = { ...def, requirement: citing(def.requirement, revision) };
    const worst = worstOf(outcomes);
    const ms = performance.now() - t0;
    const result =
      errors.length > 0
        ? checkResult(named, { status: 'error', message: errors.join('; ') }, ms)
        : !worst
          ? checkResult(
              named,
              { status: 'skip', message: reasons.length > 0 ? reasons.join('; ') : 'no scenario of this run applies' },
              ms,
            )
          : worst.status === 'pass'
            ? checkResult(named, { status: 'pass', message: outcomes.map((o) => o.message).join('; ') }, ms)
            : checkResult(
                named,
                { status: worst.status, message: worst.message, expected: worst.expected, actual: worst.actual },
                ms,
                worst.transcript,
              );
    return { ...result, area: def.id.split('/').slice(0, 2).join('/') };
  });
}

/** Why a 2026-07-28 scenario judged nothing: the client opened with initialize, so it does not speak that wire. */
function eraRefused(r: ScenarioRecord): string | undefined {
  if (r.revision !== STATELESS) return undefined;
  const first = r.conv.frames.find(
    (f) => f.dir === 'in' && isObject(f.message) && typeof f.message.method === 'string',
  );
  return isObject(first?.message) && first.message.method === 'initialize'
    ? `${r.scenario.name} @ ${r.revision}: the client does not speak ${STATELESS} (it sent initialize)`
    : undefined;
}

/** Runs every scenario of the plan and judges them: the report, in the same shape as a server run's. */
export async function runClientConformance(options: ClientRunOptions): Promise<Report> {
  const startedAt = new Date();
  const t0 = performance.now();
  const records: ScenarioRecord[] = [];
  // Authorization scenarios (auth/*) run only when named or asked for (--auth); the others unless only auth/* are named.
  const authNames = options.scenarios?.filter(isAuthScenario) ?? [];
  const mcpNames = options.scenarios?.filter((n) => !isAuthScenario(n));
  const mcpOnlyAuth = options.scenarios !== undefined && mcpNames?.length === 0;
  const transport = transportOf(options);
  const jobs: (() => Promise<ScenarioRecord | ScenarioRecord[]>)[] = [
    ...(mcpOnlyAuth ? [] : plan({ ...options, transport, scenarios: mcpNames })).map(
      ([scenario, revision]) =>
        () =>
          transport === 'stdio'
            ? runStdioScenario(scenario, revision, options)
            : runScenario(scenario, revision, options),
    ),
    ...authPlan(options, authNames).map(
      (auth) => () => runScenario(mcpScenarioOf(auth.scenario), auth.revision, options, auth),
    ),
  ];
  records.push(...(await sideBySide(jobs, widthOf(options), options.signal)).flat());
  const selected = [...CLIENT_CHECKS, ...(records.some((r) => r.auth) ? CLIENT_AUTH_CHECKS : [])].filter((c) =>
    selects(c.id, options.only, options.skip),
  );
  let checks = judge(selected, records);
  // A client that made no request at all, in any scenario: every check is a harness error. One that made some (a flow
  // that broke, a refusal it gave up on) is judged on what it asked.
  if (records.length > 0 && !records.some(madeRequests))
    checks = checks.map((c) => ({
      ...c,
      status: 'error' as const,
      message:
        transport === 'stdio' && records.every((r) => !r.stdio)
          ? `the client never started {server} in any scenario (${describeExits(records)})`
          : `the client made no request to the test server or the authorization servers in any scenario (${describeExits(records)})`,
    }));
  if (options.strict) checks = checks.map((c) => (c.status === 'warn' ? { ...c, status: 'fail' as const } : c));
  const client = records.find((r) => r.conv.clientInfo)?.conv;
  const command = typeof options.client === 'function' ? undefined : options.client;
  const report = {
    tool: TOOL,
    target: {
      description: command ? [command.command, ...command.args].join(' ') : 'a client in this process',
      ...(command && { command: command.command, args: command.args }),
    },
    client: {
      ...(typeof client?.clientInfo?.name === 'string' && { name: client.clientInfo.name }),
      ...(typeof client?.clientInfo?.version === 'string' && { version: client.clientInfo.version }),
      ...(client?.negotiated && { protocolVersion: client.negotiated }),
      ...(client?.capabilities && { capabilities: client.capabilities }),
      scenarios: records.map((r) => ({
        name: r.scenario.name,
        revision: r.revision,
        frames: r.conv.frames.length,
        exit: r.exit.spawnError ?? (r.exit.stopped ? 'stopped at the end of its budget' : `exit code ${r.exit.code}`),
      })),
    },
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - t0),
    strict: options.strict ?? false,
    seed: options.seed ?? 0,
    ...(options.signal?.aborted && { interrupted: true }),
    summary: summarize(checks),
    checks,
  } as Report;
  // Tokens, codes and client secrets an authorization scenario issued or saw read *** wherever they were echoed.
  const secrets = [...new Set(records.flatMap((r) => r.auth?.rig.log.secretList ?? []))];
  return redact(
    report,
    secrets.sort((a, b) => b.length - a.length),
  );
}

/**
 * Client processes side by side: each scenario has its own test server and its own client, and a client process
 * spends most of its life starting (a node client is 0.3–0.5 s of CPU) or waiting, so one a core. A client in this
 * process runs one scenario at a time.
 */
function widthOf(options: ClientRunOptions): number {
  if (typeof options.client === 'function') return 1;
  return Math.max(1, Math.min(options.maxClients ?? availableParallelism(), availableParallelism()));
}

/** Runs the jobs at most `width` at a time; the results in the jobs' order. A job not begun when `signal` aborts is left out. */
async function sideBySide<T>(jobs: readonly (() => Promise<T>)[], width: number, signal?: AbortSignal): Promise<T[]> {
  const results: (T | undefined)[] = new Array(jobs.length);
  let next = 0;
  const lane = async () => {
    while (next < jobs.length && !signal?.aborted) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, lane));
  return results.filter((r): r is T => r !== undefined);
}

/** stdio when asked, or when the client's command has `{server}`. */
function transportOf(options: ClientRunOptions): 'http' | 'stdio' {
  if (options.transport) return options.transport;
  return typeof options.client !== 'function' && options.client.args.some((a) => a.includes('{server}'))
    ? 'stdio'
    : 'http';
}

function isAuthScenario(name: string): boolean {
  return AUTH_SCENARIOS.some((s) => s.name === name);
}

/**
 * The authorization scenarios asked for, each at every revision it runs at (or at the one `revision` names, where it
 * has it): those named (counted in full), or every one of the tiers `auth` says.
 */
export function authPlan(
  options: Pick<ClientRunOptions, 'auth' | 'revision'>,
  names: readonly string[] = [],
): AuthPick[] {
  const picked = names.length
    ? AUTH_SCENARIOS.filter((s) => names.includes(s.name))
    : options.auth
      ? AUTH_SCENARIOS.filter((s) => options.auth === 'all' || s.tier !== 'extension')
      : [];
  const one =
    options.revision && options.revision !== 'auto' && options.revision !== 'all' ? options.revision : undefined;
  const at = (sc: AuthScenario) =>
    !one
      ? sc.revisions
      : // 2025-06-18 has the authorization of 2025-11-25 (resource metadata, RFC 8707), so those scenarios run there.
        sc.revisions.includes(one) || (one === '2025-06-18' && sc.revisions.includes('2025-11-25'))
        ? [one]
        : [];
  const absent = picked.filter((sc) => names.includes(sc.name) && at(sc).length === 0);
  if (absent.length > 0)
    throw new Error(
      `scenario ${absent.map((sc) => sc.name).join(', ')} does not run at ${one}: it runs at ${absent[0]?.revisions.join(', ')}`,
    );
  return picked.flatMap((scenario) =>
    at(scenario).map((revision) => ({ scenario, revision, counted: names.length > 0 })),
  );
}

/** Whether the client asked anything in a scenario: an MCP frame, or any HTTP request to the suite's servers. */
function madeRequests(r: ScenarioRecord): boolean {
  return r.conv.frames.length > 0 || (r.http?.exchanges.length ?? 0) > 0 || (r.auth?.rig.log.exchanges.length ?? 0) > 0;
}

/** What a scenario without MCP saw: its HTTP requests (the first few) and how the client ended. */
function sawOnly(r: ScenarioRecord): string {
  const seen = (r.auth?.rig.log.exchanges ?? r.http?.exchanges ?? []).map(
    (e) => `${e.method} ${new URL(e.url, 'http://x').pathname} → ${e.status ?? 'no answer'}`,
  );
  const shown = seen.slice(0, 4).join('; ');
  if (seen.length === 0) return `no HTTP request either; ${describeExits([r])}`;
  return `${seen.length} HTTP request${seen.length === 1 ? '' : 's'}: ${shown}${seen.length > 4 ? '; …' : ''}; ${describeExits([r])}`;
}

function describeExits(records: readonly ScenarioRecord[]): string {
  const first = records[0]?.exit;
  if (!first) return 'no scenario ran';
  return first.spawnError
    ? `it could not be started: ${first.spawnError}`
    : first.stopped
      ? 'it was stopped at the end of its budget'
      : `it exited with code ${first.code}`;
}
