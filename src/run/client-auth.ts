// Runs a client under an authorization scenario: starts the scenario's servers, starts the client (a command, or a
// function in the caller's process) with the official environment, waits until it ends, and judges what it did.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { OAuthRig } from '../auth/oauth-rig.js';
import { type AuthScenario, contextOf } from '../auth/scenarios.js';
import { CLIENT_AUTH_CHECKS } from '../checks/client-side/auth.js';
import type { Requirement, Status } from '../schema/generated/report.js';
import { descendants, killTree } from '../transport/process-tree.js';

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
