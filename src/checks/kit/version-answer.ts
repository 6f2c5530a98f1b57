// Answers to initialize with one requested version: version negotiation's checks judge them, and the client probe
// asks for the unsupported one on its own session first, a server process fewer over stdio.
import type { TranscriptEntry } from '../../schema/generated/report.js';
import type { Reply, Session } from '../../session/session.js';
import { versionIn } from '../../discovery/discover.js';
import { type CheckContext, type Outcome, describeReply } from './check.js';

/** A version that does not exist: asked for it, a server answers with one it supports. */
export const UNSUPPORTED = '1999-01-01';

/** What the server answered to initialize with one requested version. */
export interface VersionAnswer {
  requested: string;
  /** The version in the result, when the answer was a result. */
  answered?: string;
  reply: unknown;
  /** Asked on another check's session (the client probe's): that session, and the exchange, the checks' evidence. */
  from?: { session: Session; transcript: TranscriptEntry[] };
}

export function versionAnswer(requested: string, reply: Reply): VersionAnswer {
  return { requested, answered: versionIn(reply), reply: describeReply(reply) };
}

const key = (requested: string) => `version:${requested}`;

/** The run's answer to `requested`, asked once by `ask`; for the unsupported version, the client probe's when it claimed it. */
export async function askedOnce(
  ctx: CheckContext,
  requested: string,
  ask: () => Promise<VersionAnswer>,
): Promise<VersionAnswer> {
  const answer =
    (await ctx.memo<VersionAnswer | undefined>(key(requested), ask)) ??
    // The claim ended without an answer (its initialize timed out, or its server was lost): asked on a process of its own.
    (await ctx.memo(`${key(requested)}:own`, ask));
  if (answer.from) ctx.readFrom(answer.from.session);
  return answer;
}

/** `outcome` with the exchange of an answer asked on another check's session as its evidence. */
export const withExchange = (answer: VersionAnswer, outcome: Outcome): Outcome =>
  answer.from ? { ...outcome, transcript: answer.from.transcript } : outcome;

/**
 * Claims the run's initialize with the unsupported version for a session the caller opens anyway: `settle` with its
 * reply and that session (no reply: it got none, and the version checks ask on a process of their own). Undefined when a version check
 * asked first. Only the first `settle` counts; the caller settles on every path, or those checks wait for ever.
 */
export function claimUnsupported(ctx: CheckContext): ((reply?: Reply, session?: Session) => void) | undefined {
  let settle: ((reply?: Reply, session?: Session) => void) | undefined;
  void ctx.memo<VersionAnswer | undefined>(
    key(UNSUPPORTED),
    () =>
      new Promise((resolve) => {
        settle = (reply, session) =>
          resolve(
            reply && {
              ...versionAnswer(UNSUPPORTED, reply),
              ...(session && { from: { session, transcript: [reply.sent, reply.entry] } }),
            },
          );
      }),
  );
  return settle;
}
