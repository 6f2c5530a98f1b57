import type http from 'node:http';
import { recordStart } from '../timing.js';
import { backoff } from '../backoff.js';
import type { Transcript } from '../transcript.js';
import { LaunchError } from '../target/launch-error.js';
import type { LaunchPlan } from '../target/launch-plan.js';
import { TOOL } from '../version.js';
import type { HttpTarget } from './http-base.js';
import { failure, mediaType, readBody, send, sessionAgent } from './http-client.js';
import { StreamableHttpTransport } from './http.js';
import { redact, redactUrl, secretsOf } from './secrets.js';
import { type ServerProcess, formatCommand, spawnServer } from './server-process.js';
import { type SseEvent, SseParser } from './sse-parser.js';
import { cpuMs } from './process-tree.js';
import { gateFor } from './start-gate.js';
import { LegacySseTransport } from './sse.js';
import { startServe, startStdio } from './stdio.js';
import type { ExitInfo, Transport } from './transport.js';

/** Opens the transports of one run's sessions; owns the HTTP server process when the run starts one. */
export interface Connection {
  /**
   * A new session's transport: a new server process (stdio), a new call of `serve` (in-process), or a new session on
   * the same HTTP server. Aborting `signal` (the run was stopped) gives up a server start still waiting its turn
   * (StartAborted).
   */
  open(transcript: Transcript, signal?: AbortSignal): Promise<Transport>;
  /** Stops the HTTP server the run started, if any; call it after every session is closed. */
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** How long a detection request or the legacy endpoint event may take. */
  timeoutMs: number;
  /** The protocolVersion the detection's initialize asks for (a transport knows no revisions of its own). */
  probeVersion: string;
  /** How long a started HTTP server may take to answer at its URL. Default 30 s. */
  readyMs?: number;
}

const DEFAULT_READY_MS = 30_000;
/**
 * A refused connection costs next to nothing, and the run waits out each pause in full: the first polls come soon (a
 * quick server starts the run at once), then further apart, up to POLL_MAX_MS (a slow one is not polled 50 times a second).
 */
const POLL_FIRST_MS = 20;
const POLL_MAX_MS = 250;
/** Lines of the server's output quoted when it never answered. */
const TAIL_LINES = 10;

export function connect(plan: LaunchPlan, opts: ConnectOptions): Connection {
  const connection = connectTo(plan, opts);
  const secrets = secretsOf(plan);
  // A launch error quotes the command line and the server's output, either of which may hold a secret.
  const redacted = (err: unknown) =>
    err instanceof LaunchError
      ? new LaunchError(
          redact(err.message, secrets),
          redact(err.command, secrets),
          err.code,
          redact(err.stderrTail, secrets),
        )
      : err;
  return {
    ...connection,
    open: (transcript, signal) =>
      connection.open(transcript, signal).catch((err: unknown) => Promise.reject(redacted(err))),
  };
}

function connectTo(plan: LaunchPlan, opts: ConnectOptions): Connection {
  const url = plan.url;
  const serve = plan.serve;
  if (serve !== undefined)
    return { open: async (transcript) => startServe(serve, plan, transcript), close: async () => {} };
  if (url === undefined)
    return {
      open: (transcript, signal) => startStdio(plan, transcript, { startAllowanceMs: opts.timeoutMs, signal }),
      close: async () => {},
    };
  let prepared: Promise<{ target: HttpTarget; kind: 'http' | 'sse' }> | undefined;
  return {
    // Prepared with the first (shared) session's transcript: it tells the server's story, as on stdio.
    async open(transcript, signal) {
      const { target, kind } = await (prepared ??= prepare(plan, url, transcript, opts, signal));
      return kind === 'sse'
        ? LegacySseTransport.open(target, transcript, opts.timeoutMs)
        : new StreamableHttpTransport(target, transcript);
    },
    async close() {
      const ready = await prepared?.catch(() => undefined);
      await ready?.target.server?.stop(false);
    },
  };
}

/** Starts the server (if the plan has a command) and waits for its URL, then finds out which HTTP transport it speaks. */
async function prepare(
  plan: LaunchPlan,
  url: string,
  transcript: Transcript,
  opts: ConnectOptions,
  signal?: AbortSignal,
): Promise<{ target: HttpTarget; kind: 'http' | 'sse' }> {
  const target: HttpTarget = { url: new URL(url), headers: plan.headers ?? {} };
  // A server the run starts takes its turn like a stdio one (runs side by side start one each), and its start is measured.
  const leave = plan.command ? await gateFor(plan).enter(signal) : () => {};
  try {
    if (plan.command) target.server = await spawnServer(plan, transcript, {}, true);
    const spawned = performance.now();
    if (target.server) await awaitAnswer(target, target.server, plan, opts.readyMs ?? DEFAULT_READY_MS, transcript);
    leave(target.server ? (cpuMs(target.server.pid) ?? performance.now() - spawned) : undefined);
    return { target, kind: plan.transport === 'sse' ? 'sse' : await detect(target, transcript, opts) };
  } catch (err) {
    leave();
    await target.server?.stop(false);
    throw err;
  }
}

/** Polls the URL until any HTTP response comes (its status does not matter); fails when the server exits or the time is up. */
async function awaitAnswer(
  target: HttpTarget,
  server: ServerProcess,
  plan: LaunchPlan,
  readyMs: number,
  transcript: Transcript,
): Promise<void> {
  const spawned = performance.now();
  const deadline = spawned + readyMs;
  const agent = sessionAgent(target.url);
  const shown = redactUrl(String(target.url));
  try {
    for (let attempt = 0; ; attempt++) {
      if (server.ended) {
        const exit = await new Promise<ExitInfo>((resolve) => server.onExit(resolve));
        throw launchFailure(
          plan,
          server,
          `exited (code ${exit.code ?? 'none'}, signal ${exit.signal ?? 'none'}) before answering at ${shown}`,
        );
      }
      try {
        const res = await send({
          method: 'GET',
          url: target.url,
          headers: { Accept: 'text/event-stream', ...target.headers },
          agent,
          signal: AbortSignal.timeout(1000),
        });
        res.destroy();
        transcript.add('event', `${shown} answers (GET → ${res.statusCode})`);
        recordStart(performance.now() - spawned);
        return;
      } catch (err) {
        // Refused: not listening yet. Timed out: it accepted the connection, so it is up, and its silence is for the checks to judge.
        if (timedOut(err)) {
          transcript.add('event', `${shown} accepted the connection but sent no response within 1 s`);
          recordStart(performance.now() - spawned);
          return;
        }
      }
      const left = deadline - performance.now();
      if (left <= 0)
        throw launchFailure(plan, server, `did not answer at ${shown} within ${Math.round(readyMs / 1000)} s`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(backoff(attempt, POLL_FIRST_MS, POLL_MAX_MS), left)));
    }
  } finally {
    agent.destroy();
  }
}

/** A request that connected but got no response in time (the AbortSignal.timeout fired), as opposed to a refused one. */
const timedOut = (err: unknown) => (err as Error).name === 'TimeoutError' || failure(err) === 'ABORT_ERR';

/** One line naming the command and what went wrong, then the end of what the server wrote. */
function launchFailure(plan: LaunchPlan, server: ServerProcess, what: string): LaunchError {
  const tail = server.stderrTail(TAIL_LINES);
  const quoted = tail ? `\nlast server output:\n${tail.replace(/^/gm, '  ')}` : ' (the server wrote nothing)';
  return new LaunchError(`${formatCommand(plan.command, plan.args)} ${what}${quoted}`, plan.command, undefined, tail);
}

/**
 * The specification's way to tell the two HTTP transports apart (Streamable HTTP › Backwards Compatibility):
 * POST an InitializeRequest; when that fails with 400, 404 or 405, GET the URL, and an `endpoint` event as
 * the first event means legacy HTTP+SSE. A session the probe created is deleted again.
 */
async function detect(
  target: HttpTarget,
  transcript: Transcript,
  { timeoutMs: waitMs, probeVersion }: ConnectOptions,
): Promise<'http' | 'sse'> {
  const agent = sessionAgent(target.url);
  const note = (text: string) => transcript.add('event', `transport detection: ${text}`);
  const shown = redactUrl(String(target.url));
  const initialize = {
    jsonrpc: '2.0',
    id: 'mcp-conformance-detect',
    method: 'initialize',
    params: { protocolVersion: probeVersion, capabilities: {}, clientInfo: TOOL },
  };
  try {
    let res: http.IncomingMessage;
    try {
      const headers = {
        Accept: 'application/json, text/event-stream',
        'Content-Type': 'application/json',
        ...target.headers,
      };
      res = await send({
        method: 'POST',
        url: target.url,
        headers,
        body: JSON.stringify(initialize),
        agent,
        signal: AbortSignal.timeout(waitMs),
      });
    } catch (err) {
      if (!timedOut(err)) throw new LaunchError(`nothing answered at ${shown}: ${failure(err)}`, shown);
      note(`POST initialize: no response within ${waitMs} ms; assuming Streamable HTTP`);
      return 'http';
    }
    const status = res.statusCode ?? 0;
    const refused = [400, 404, 405].includes(status);
    // A JSON-RPC error in a refusal's body is a Streamable HTTP server's answer (a server of the stateless wire refuses
    // initialize so): the GET below would wait a whole --timeout for an `endpoint` event on a stream it may hold open.
    const { text } = refused ? await readBody(res, DETECT_BODY_BYTES) : (res.resume(), { text: '' });
    if (refused && isJsonRpcError(text)) {
      note(`POST initialize → ${status} with a JSON-RPC error: Streamable HTTP`);
      return 'http';
    }
    if (!refused) {
      note(`POST initialize → ${status}: Streamable HTTP`);
      const sid = res.headers['mcp-session-id'];
      if (typeof sid === 'string') {
        const deleted = await send({
          method: 'DELETE',
          url: target.url,
          headers: { ...target.headers, 'Mcp-Session-Id': sid },
          agent,
          signal: AbortSignal.timeout(waitMs),
        }).catch(() => undefined);
        deleted?.resume();
      }
      return 'http';
    }
    const stream = await send({
      method: 'GET',
      url: target.url,
      headers: { Accept: 'text/event-stream', ...target.headers },
      agent,
      signal: AbortSignal.timeout(waitMs),
    }).catch(() => undefined);
    const first =
      stream?.statusCode === 200 && mediaType(stream) === 'text/event-stream'
        ? await firstEvent(stream, waitMs)
        : undefined;
    const legacy = first?.type === 'endpoint';
    note(
      `POST initialize → ${status}, GET → ${stream?.statusCode ?? 'no response'}${first ? `, first event ${first.type}` : ''}: ${legacy ? 'legacy HTTP+SSE' : 'Streamable HTTP'}`,
    );
    return legacy ? 'sse' : 'http';
  } finally {
    agent.destroy();
  }
}

/** Enough of a refusal's body for a JSON-RPC error. */
const DETECT_BODY_BYTES = 64 * 1024;

/** Whether `text` is a JSON-RPC error response. */
function isJsonRpcError(text: string): boolean {
  try {
    const m = JSON.parse(text) as { jsonrpc?: unknown; error?: unknown } | null;
    return m?.jsonrpc === '2.0' && typeof m.error === 'object' && m.error !== null;
  } catch {
    return false;
  }
}

function firstEvent(res: http.IncomingMessage, ms: number): Promise<SseEvent | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    const done = (event?: SseEvent) => {
      clearTimeout(timer);
      resolve(event);
    };
    const parser = new SseParser(done);
    res.on('data', (chunk: Buffer) => {
      try {
        parser.push(chunk);
      } catch {
        done();
      }
    });
    res.on('end', () => done());
    res.on('error', () => done());
  });
}
