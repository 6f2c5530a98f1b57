import type { Requires } from '../../schema/generated/case.js';
import type { Requirement, Status, TranscriptEntry } from '../../schema/generated/report.js';
import type { ListsWalked } from '../../discovery/discover.js';
import type { ServerProfile } from '../../discovery/profile.js';
import type { LocalIssuer } from '../../auth/issuer.js';
import type { ToolCallPolicy } from '../../generate/tool-policy.js';
import { REVISIONS } from '../../schema/validators.js';
import type { Exchange, Reply, RequestId, Session } from '../../session/session.js';
import { type ExitInfo, type TransportKind, overStdio } from '../../transport/transport.js';
import { bounded, isObject } from '../../json.js';
import { otherRevision, otherTransport } from '../../skip-reason.js';

/** What a check concluded. `error` is never returned by a check: the runner gives it to a check that threw. */
export interface Outcome {
  status: Exclude<Status, 'error'>;
  message: string;
  expected?: unknown;
  actual?: unknown;
  /** The excerpt to report instead of every frame the check exchanged (a property reports its counterexample's). */
  transcript?: TranscriptEntry[];
  /**
   * The verdict is a failure for silence only: these requests, which need no slow work, were not answered in time.
   * When every one of them is answered late after all, the run makes it a warning (the server did answer).
   */
  silent?: Exchange[];
}

/** The shared server was lost mid-run: it exited, or closed its stdout, before the client ended the session. */
export interface ServerLoss {
  /** e.g. `process exited (code 139, signal null)`. */
  why: string;
  /** The requests in flight then, oldest first, as `method (id …)`: the server died answering the first. */
  pending: string[];
  /** Its stderr tail. */
  stderr: string;
  /** The process's story (spawn, stderr, exit) and the requests it left unanswered. */
  transcript: TranscriptEntry[];
}

/** What a check may use. Requests made through it are the check's transcript excerpt. */
export interface CheckContext {
  profile: ServerProfile;
  /** Requests on the shared, initialized session. */
  request(method: string, params?: unknown, opts?: { id?: RequestId; timeoutMs?: number }): Promise<Reply>;
  /** A new server process, not yet initialized; closed by the runner after the check. */
  fresh(): Promise<Session>;
  /**
   * An initialized session of the check's own (on the stateless wire, ready as it is): a new one, or for a `scratch`
   * check over stdio a scratch session it has to itself while it runs.
   */
  ownSession(): Promise<Session>;
  /**
   * The run's second connection on the stateless wire, where requests carry their own version and capabilities: one
   * session (over stdio one server process) that every check wanting another connection than the shared one shares,
   * closed when the run ends. Opened at its first use; its first requests walk every list the server declares
   * (`lists`), and it is handed out once they are answered.
   */
  elsewhere(): Promise<{ session: Session; lists: ListsWalked }>;
  /** Initializes a session (fresh ones) with the given protocol version; returns the reply. */
  initialize(session: Session, protocolVersion: string): Promise<Reply>;
  /** Notes that the check judged what another check's `session` was answered: the report lists it among that process's checks. */
  readFrom(session: Session): void;
  /** Runs `fn` once per run for `key` and shares the promise: probes several checks judge. */
  memo<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /** Shuts the shared session down (for the shutdown check, which runs last). */
  closeShared(): Promise<ExitInfo>;
  /** The shared server's stderr tail, for messages about crashes. */
  stderrTail(): string;
  /** Each time the shared server was lost mid-run (and restarted for the checks after). */
  serverLosses(): ServerLoss[];
  timeoutMs: number;
  /** The run's seed: generated checks (properties) draw their values from it. */
  seed: number;
  /** Values each property generates. */
  runs: number;
  /** Which tools generated calls may reach. */
  toolCalls: ToolCallPolicy;
  /** Tools that left a generated call unanswered within the timeout, with why: the run's generated calls leave them out. */
  slowTools: Map<string, string>;
  /** The command line that reruns only check `id` with this run's seed. */
  replay(id: string): string;
  /** The --auth-server, when the run has one: an issuer the server under test may trust. */
  issuer?: LocalIssuer;
}

/** A built-in check: stable id, the requirement it exercises, and how to run it. */
export interface CheckDef {
  id: string;
  title: string;
  requirement: Requirement;
  /** Further catalogue requirement ids the check also exercises. */
  covers?: string[];
  /** Where the check is defined, when it is data (a case file). */
  source?: string;
  /** Checks marked last run after all others, one at a time. */
  last?: boolean;
  /** Opens sessions of its own (ctx.fresh(), a server process each over stdio): such checks start first, so that those servers start while the other checks work. */
  fresh?: boolean;
  /** On the stateless wire it uses the run's second connection (ctx.elsewhere()) rather than sessions of its own. */
  elsewhere?: boolean;
  /**
   * Needs its own session (ctx.ownSession()) only to keep what it sends away from the shared one (bad input, session
   * state), not a new server: over stdio it takes turns on a scratch session, and runs again on a server of its own
   * when it does not pass there (see ScratchSessions). Starts first, like `fresh`.
   */
  scratch?: boolean;
  /**
   * Does work a server may find slow (tools called with valid arguments, the progress probe): starts before every
   * other check, and over stdio takes the server processes started during discovery, so that a slow tool's one timeout
   * runs while the rest of the run works rather than after it.
   */
  slowWork?: boolean;
  /** The one transport the check applies to (its requirement is about it); on any other it is skipped. `stdio` is the stdio wire, in-process servers included. */
  transport?: TransportKind;
  /** Judges the server's process (how it exits, its signals): skipped for a server in the caller's process. */
  needsProcess?: boolean;
  /** The skip reason on stdio, when it says more than the transport's name. */
  offTransport?: string;
  /** The extension the check tests (e.g. `io.modelcontextprotocol/ui`): `list` names it, and the check's area is that extension's. */
  extension?: string;
  /** The revisions the check applies to (default: the initialize wire's); under any other it is skipped. */
  revisions?: readonly string[];
  /**
   * What the server must offer, as a case's `requires:` says it (capabilities by dotted path, capabilities it must not
   * declare, profile lists that must not be empty): the run skips the check with the reason, before it runs.
   */
  requires?: Requires;
  run(ctx: CheckContext): Promise<Outcome>;
}

const TRANSPORT_NAMES: Record<TransportKind, string> = {
  stdio: 'stdio',
  http: 'Streamable HTTP',
  sse: 'legacy HTTP+SSE',
  'in-process': 'in-process',
};

/** The skip reason of a check that judges the server's process, on a server of the caller's process. */
export const NEEDS_PROCESS = 'needs a server process; this run tests a server in-process';

/**
 * The skip reason for a check or frame rule made for another transport than the run's; undefined when it applies. A
 * server in-process speaks the stdio wire: what is made for stdio applies to it, unless it needs a process.
 */
export function wrongTransport(
  needs: TransportKind | undefined,
  actual: TransportKind,
  onStdio?: string,
  needsProcess = false,
): string | undefined {
  if (needsProcess && actual === 'in-process') return NEEDS_PROCESS;
  if (needs === undefined || needs === actual || (needs === 'stdio' && overStdio(actual))) return undefined;
  if (onStdio !== undefined && overStdio(actual)) return onStdio;
  return otherTransport(TRANSPORT_NAMES[needs], TRANSPORT_NAMES[actual]);
}

/**
 * The skip reason for a check made for other revisions than the run's; undefined when it applies. A check applies to
 * the initialize wire's revisions unless it names others: it runs on the stateless 2026-07-28 wire only when it names
 * that revision.
 */
export function wrongRevision(revisions: readonly string[] = REVISIONS, revision: string): string | undefined {
  return revisions.includes(revision) ? undefined : otherRevision(revisions, revision);
}

export const pass = (message: string, extra: Partial<Outcome> = {}): Outcome => ({ status: 'pass', message, ...extra });
export const fail = (message: string, extra: Partial<Outcome> = {}): Outcome => ({ status: 'fail', message, ...extra });
export const warn = (message: string, extra: Partial<Outcome> = {}): Outcome => ({ status: 'warn', message, ...extra });
export const skip = (message: string): Outcome => ({ status: 'skip', message });

/** How bad a verdict is: a failure over a warning over a pass or skip. */
const SEVERITY = { pass: 0, skip: 0, warn: 1, fail: 2 } as const;

/** The first of the worst of `items` (by `statusOf`, default their status); undefined when there are none. */
export function worstOf<T>(
  items: readonly T[],
  statusOf: (item: T) => keyof typeof SEVERITY = (item) => (item as { status: keyof typeof SEVERITY }).status,
): T | undefined {
  return items.reduce<T | undefined>(
    (w, o) => (w === undefined || SEVERITY[statusOf(o)] > SEVERITY[statusOf(w)] ? o : w),
    undefined,
  );
}

/** Worst of several outcomes (fail > warn > pass), with the messages of the ones that matter. */
export function worst(outcomes: Outcome[]): Outcome {
  const first = worstOf(outcomes);
  if (!first || (first.status !== 'fail' && first.status !== 'warn'))
    return pass(outcomes.map((o) => o.message).join('; '));
  return {
    ...first,
    message: outcomes
      .filter((o) => o.status === first.status)
      .map((o) => o.message)
      .join('; '),
  };
}

/** Judges an error reply against the code the spec names; `other` is the verdict for any other error code. */
export function expectCode(reply: Reply, code: number, what: string, other: 'fail' | 'warn'): Outcome {
  const err = errorOf(reply);
  if (!err) return fail(`${what} succeeded`, { expected: { error: { code } }, actual: describeReply(reply) });
  if (err.code === code) return pass(`${what} → ${code}`);
  const verdict = other === 'fail' ? fail : warn;
  // No code came when the transport made the error up: say what did (e.g. "HTTP 400 without a JSON-RPC response").
  const got = reply.synthetic ? String(err.message).split(':')[0] : JSON.stringify(err.code);
  return verdict(`${what} → ${got}, expected ${code}`, { expected: { error: { code } }, actual: describeReply(reply) });
}

/** Tool names within the naming rules (2025-11-25). */
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The error object of a reply, when it is one. */
export function errorOf(reply: Reply): { code: unknown; message: unknown; data?: unknown } | undefined {
  const e = reply.message.error;
  return typeof e === 'object' && e !== null ? (e as { code: unknown; message: unknown }) : undefined;
}

export function resultOf(reply: Reply): Record<string, unknown> | undefined {
  const r = reply.message.result;
  return isObject(r) ? r : undefined;
}

/** A short description of a reply for `actual`: the error, or the result, with long strings cut (checks memoise these). */
export function describeReply(reply: Reply): unknown {
  const e = errorOf(reply);
  return bounded(e ? { error: e } : { result: reply.message.result });
}
