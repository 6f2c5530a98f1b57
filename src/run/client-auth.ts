// Runs a client under an authorization scenario: starts the scenario's servers, starts the client (a command, or a
// function in the caller's process) with the official environment, waits until it ends, and judges what it did.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { OAuthRig } from '../auth/oauth-rig.js';
import { type AuthScenario, contextOf } from '../auth/scenarios.js';
import { CLIENT_AUTH_CHECKS } from '../checks/client-side/auth.js';
import { worstOf } from '../checks/kit/check.js';
import type { CheckResult, Requirement, Status, TranscriptEntry } from '../schema/generated/report.js';
import { descendants, killTree } from '../transport/process-tree.js';
import { checkResult } from './result.js';

/** The BROWSER command the run sets: fetches the URL and follows redirects to the client's loopback callback. */
export const BROWSER_COMMAND = fileURLToPath(new URL('../auth/browser.js', import.meta.url));

export interface ClientAuthResult {
  id: string;
  scenario: string;
  tier: AuthScenario['tier'];
  requirement: Requirement;
  status: Status;
  message: string;
  expected?: unknown;
  actual?: unknown;
}

export interface ScenarioRun {
  scenario: string;
  tier: AuthScenario['tier'];
  /** How the client ended: `exit 0`, `timeout`, `looping`, `threw: …`. */
  ended: string;
  results: ClientAuthResult[];
  /** Every exchange, one line each, secrets as ***. */
  exchanges: string[];
  /** The client's stderr tail (processes), secrets as ***. */
  stderr?: string;
}

/** The environment the official contract gives a client: the scenario, the revision, the context, and BROWSER. */
export function clientEnv(sc: AuthScenario): Record<string, string> {
  const context = contextOf(sc);
  return {
    MCP_CONFORMANCE_SCENARIO: sc.name,
    MCP_CONFORMANCE_PROTOCOL_VERSION: sc.revision,
    ...(context && { MCP_CONFORMANCE_CONTEXT: JSON.stringify(context) }),
    BROWSER: BROWSER_COMMAND,
  };
}

/** A client in the caller's process: gets the server URL and the environment; resolves when it is done. */
export type InProcessClient = (url: string, env: Record<string, string>) => Promise<unknown>;

/** How to start the client: a function, or a command line (the URL is appended as its last argument). */
export type ClientUnderTest = InProcessClient | { command: string; args: string[] };

export async function runScenario(
  sc: AuthScenario,
  client: ClientUnderTest,
  timeoutMs = 30_000,
  signal?: AbortSignal,
): Promise<ScenarioRun> {
  const rig = await OAuthRig.start(sc);
  const env = clientEnv(sc);
  let ended: string;
  let stderr: string | undefined;
  try {
    const loop = new Promise<string>((resolve) => {
      const wait = () => void rig.served().then(() => (rig.looping ? resolve('looping') : wait()));
      wait();
    });
    let timer: NodeJS.Timeout | undefined;
    let onAbort = () => {};
    const timeout = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
      onAbort = () => resolve('interrupted');
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    if (typeof client === 'function') {
      const done = client(rig.serverUrl, env).then(
        () => 'returned',
        (e: unknown) => `threw: ${e instanceof Error ? e.message : String(e)}`,
      );
      ended = await Promise.race([done, loop, timeout]);
    } else {
      const child = spawn(client.command, [...client.args, rig.serverUrl], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let tail = '';
      const keep = (c: Buffer) => {
        tail = (tail + c.toString('utf8')).slice(-4000);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      const exited = new Promise<string>((resolve) => {
        child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `exit ${code}`));
        child.once('error', (e) => resolve(`could not start: ${e.message}`));
      });
      ended = await Promise.race([exited, loop, timeout]);
      if (child.pid !== undefined && child.exitCode === null) {
        killTree(child.pid, descendants(child.pid));
        await exited;
      }
      stderr = rig.log.hide(tail);
    }
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  } finally {
    await rig.close();
  }
  const run = { scenario: sc, rig };
  const results = CLIENT_AUTH_CHECKS.filter((c) => c.applies(sc)).map((c): ClientAuthResult => {
    let o: ReturnType<typeof c.judge>;
    try {
      o = c.judge(run);
    } catch (e) {
      return {
        id: c.id,
        scenario: sc.name,
        tier: sc.tier,
        requirement: c.requirement,
        status: 'error',
        message: String(e),
      };
    }
    const harness = ended.startsWith('could not start');
    return rig.log.hide({
      id: c.id,
      scenario: sc.name,
      tier: sc.tier,
      requirement: c.requirement,
      status: harness ? 'error' : o.status,
      message: harness ? `the client ${ended}` : o.message,
      ...(o.expected !== undefined && { expected: o.expected }),
      ...(o.actual !== undefined && { actual: o.actual }),
    });
  });
  return {
    scenario: sc.name,
    tier: sc.tier,
    ended: rig.log.hide(ended),
    results,
    exchanges: rig.log.exchanges.map((e) => rig.log.describe(e)),
    ...(stderr !== undefined && { stderr }),
  };
}

/**
 * One result per authorization check over the scenarios run: the worst of the core scenarios; a draft or extension
 * scenario's failure is reported as a warning naming its tier (it is not part of the verdict), unless `tiersCount`.
 */
export function judgeAuth(runs: readonly ScenarioRun[], tiersCount = false): CheckResult[] {
  return CLIENT_AUTH_CHECKS.map((def) => {
    const mine = runs.flatMap((run) =>
      run.results.filter((r) => r.id === def.id).map((r) => ({ run, r: demote(r, tiersCount) })),
    );
    const judged = mine.filter((m) => m.r.status !== 'skip');
    const bad = worstOf(judged, (m) => (m.r.status === 'error' ? 'fail' : m.r.status));
    const verdict =
      mine.length === 0
        ? { status: 'skip' as const, message: 'no scenario of this run applies' }
        : !bad || bad.r.status === 'pass'
          ? judged.length === 0
            ? { status: 'skip' as const, message: mine.map((m) => `${m.r.scenario}: ${m.r.message}`).join('; ') }
            : { status: 'pass' as const, message: `passed in ${judged.map((m) => m.r.scenario).join(', ')}` }
          : {
              status: bad.r.status,
              message: `${bad.r.scenario}: ${bad.r.message}`,
              ...(bad.r.expected !== undefined && { expected: bad.r.expected }),
              ...(bad.r.actual !== undefined && { actual: bad.r.actual }),
            };
    const transcript = bad && bad.r.status !== 'pass' ? exchangesAsTranscript(bad.run) : undefined;
    return { ...checkResult(def, verdict, 0, transcript), area: 'client-side/auth' };
  });
}

/** A failure in a draft or extension scenario is reported as a warning that names its tier. */
function demote(r: ClientAuthResult, tiersCount: boolean): ClientAuthResult {
  if (tiersCount || r.tier === 'core' || r.status !== 'fail') return r;
  return { ...r, status: 'warn', message: `[${r.tier} scenario] ${r.message}` };
}

/** The scenario's exchanges as a transcript (one line each, secrets as ***). */
function exchangesAsTranscript(run: ScenarioRun): TranscriptEntry[] {
  return run.exchanges.map((line, i) => {
    const text = line.replace(/^#\d+ /, '');
    return { seq: i + 1, dir: 'send', t: 0, bytes: Buffer.byteLength(text), text };
  });
}
