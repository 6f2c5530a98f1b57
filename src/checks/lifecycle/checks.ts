import { KNOWN_VERSIONS } from '../../schema/revisions.js';
import { REVISIONS, SCHEMA_REVISIONS, validate, shapeBroken } from '../../schema/validators.js';
import { type CheckContext, type CheckDef, type Outcome, fail, pass, warn } from '../kit/check.js';
import { UNSUPPORTED, type VersionAnswer, askedOnce, versionAnswer, withExchange } from '../kit/version-answer.js';
import { requirement } from '../kit/requirement.js';

/** The check that reports a shared server lost mid-run: the cause the checks it left unanswered name. */
export const PROCESS_ALIVE = 'lifecycle/process/alive';

/** What the server answered to initialize with `requested`, in a fresh process (asked once a run). */
function probeVersion(ctx: CheckContext, requested: string): Promise<VersionAnswer> {
  // The shared session already asked for one version.
  if (requested === ctx.profile.requestedVersion)
    return Promise.resolve({
      requested,
      answered: ctx.profile.protocolVersion,
      reply: { result: ctx.profile.initializeResult },
    });
  return askedOnce(ctx, requested, async () => {
    const session = await ctx.fresh();
    return versionAnswer(requested, await ctx.initialize(session, requested));
  });
}

/** The revisions the server echoed when asked for them. */
async function supported(ctx: CheckContext): Promise<{ answers: VersionAnswer[]; echoed: string[] }> {
  const answers = await Promise.all(REVISIONS.map((r) => probeVersion(ctx, r)));
  return { answers, echoed: answers.filter((a) => a.answered === a.requested).map((a) => a.requested) };
}

/** The verdict on the answer to an unsupported version, given the versions the server echoed. */
function counterOffer(answer: VersionAnswer, echoed: string[]): Outcome {
  const expected = `a result with a version the server supports (${echoed.join(', ') || 'none echoed'})`;
  const err = (answer.reply as { error?: { code?: unknown; data?: unknown } }).error;
  if (answer.answered === UNSUPPORTED)
    return fail(`the server echoed ${UNSUPPORTED}, a version that does not exist`, {
      expected,
      actual: answer.reply,
    });
  if (err) {
    // The spec's own error-handling example shows -32602 with data.supported (requirements §5.1): tolerated.
    if (err.code === -32602)
      return warn('answered with error -32602 instead of a result naming a supported version', {
        expected,
        actual: answer.reply,
      });
    return fail(`answered with error ${JSON.stringify(err.code)} instead of a supported version`, {
      expected,
      actual: answer.reply,
    });
  }
  if (answer.answered === undefined || !KNOWN_VERSIONS.includes(answer.answered))
    return fail('the answer names no known protocol version', { expected, actual: answer.reply });
  if (echoed.length > 0 && !echoed.includes(answer.answered)) {
    return fail(`counter-offered ${answer.answered}, which it did not accept when asked for it`, {
      expected,
      actual: answer.reply,
    });
  }
  return pass(`counter-offered ${answer.answered}`);
}

export const LIFECYCLE_CHECKS: CheckDef[] = [
  {
    id: 'lifecycle/initialize/result',
    title: 'initialize returns protocolVersion, capabilities and serverInfo',
    covers: ['impl.serverInfo'],
    requirement: requirement(
      'life.init.result',
      'MUST',
      'basic/lifecycle#initialization',
      'The server answers initialize with its protocol version, capabilities and implementation info',
    ),
    async run(ctx) {
      const { profile } = ctx;
      const r = validate(profile.revision, 'InitializeResult', profile.initializeResult);
      if (shapeBroken(r))
        return fail('the initialize result is not a valid InitializeResult', {
          expected: 'InitializeResult',
          actual: r.errors,
        });
      const who = `${profile.serverInfo.name} ${profile.serverInfo.version}`;
      return pass(`${who} negotiated ${profile.protocolVersion}`);
    },
  },
  {
    id: 'lifecycle/version/echo',
    fresh: true,
    title: 'A supported protocol version is echoed back',
    requirement: requirement(
      'life.version.echo',
      'MUST',
      'basic/lifecycle#version-negotiation',
      'If the server supports the requested protocol version, it answers with the same version; otherwise with another version it supports',
    ),
    async run(ctx) {
      const { answers, echoed } = await supported(ctx);
      const bad = answers.filter((a) => a.answered === undefined || !KNOWN_VERSIONS.includes(a.answered));
      const actual = Object.fromEntries(answers.map((a) => [a.requested, a.answered ?? a.reply]));
      if (bad.length > 0) {
        return fail(
          `asked for ${bad.map((a) => a.requested).join(', ')}, the server did not answer with a known protocol version`,
          { expected: 'the requested version, or another published version', actual },
        );
      }
      if (echoed.length === 0)
        return pass(`supports none of ${REVISIONS.join(', ')}; it counter-offered instead`, { actual });
      return pass(`supports ${echoed.join(', ')}`, { actual });
    },
  },
  {
    id: 'lifecycle/version/unsupported',
    fresh: true,
    title: 'An unsupported protocol version gets a supported one back',
    requirement: requirement(
      'life.version.unsupported',
      'MUST',
      'basic/lifecycle#version-negotiation',
      'Asked for a version it does not support, the server answers with a result naming another version it supports',
    ),
    async run(ctx) {
      const [answer, { echoed }] = await Promise.all([probeVersion(ctx, UNSUPPORTED), supported(ctx)]);
      return withExchange(answer, counterOffer(answer, echoed));
    },
  },
  {
    id: 'lifecycle/version/latest',
    fresh: true,
    title: 'The counter-offer is the newest version the server supports',
    requirement: requirement(
      'life.version.latest',
      'SHOULD',
      'basic/lifecycle#version-negotiation',
      'The version offered instead of an unsupported one should be the latest the server supports',
    ),
    async run(ctx) {
      const [answer, { echoed }] = await Promise.all([probeVersion(ctx, UNSUPPORTED), supported(ctx)]);
      if (answer.answered === undefined || echoed.length === 0)
        return { status: 'skip', message: 'no counter-offer to compare (see lifecycle/version/unsupported)' };
      const newest = [...echoed].sort().at(-1)!;
      if (answer.answered === newest)
        return withExchange(answer, pass(`counter-offered ${newest}, the newest it supports`));
      return withExchange(
        answer,
        warn(`counter-offered ${answer.answered}, but it supports ${newest}`, {
          expected: newest,
          actual: answer.answered,
        }),
      );
    },
  },
  {
    id: PROCESS_ALIVE,
    revisions: SCHEMA_REVISIONS,
    title: 'The server process keeps running until the client ends the session',
    requirement: requirement(
      'stdio.alive-after-garbage',
      'MUST',
      'basic/transports#stdio',
      'The server keeps serving until the client closes its stdin: it neither exits nor closes its stdout mid-session',
    ),
    // Last: every other check has run on the shared server by then.
    last: true,
    transport: 'stdio',
    needsProcess: true,
    async run(ctx) {
      const losses = ctx.serverLosses();
      if (losses.length === 0) return pass('the shared server ran until the client closed its stdin');
      const [first] = losses;
      const n = first.pending.length;
      const unanswered =
        n === 0
          ? ''
          : n === 1
            ? `, leaving ${first.pending[0]} unanswered`
            : `, leaving ${n} requests unanswered, the oldest ${first.pending[0]}`;
      const again = losses.length > 1 ? `; lost ${losses.length} times in all` : '';
      return fail(
        `the shared server was lost mid-run: ${first.why}${unanswered}${again}${first.stderr ? `\nserver stderr:\n${first.stderr}` : ''}`,
        {
          expected: 'running until stdin closes',
          actual: losses.map((l) => l.why),
          transcript: first.transcript,
        },
      );
    },
  },
  {
    id: 'lifecycle/shutdown/stdin-close',
    revisions: SCHEMA_REVISIONS,
    title: 'The server exits when its stdin is closed',
    requirement: requirement(
      'life.shutdown.stdio',
      'SHOULD',
      'basic/lifecycle#stdio',
      "On stdio, the client ends the session by closing the server's input; the server should exit promptly",
    ),
    last: true,
    transport: 'stdio',
    needsProcess: true,
    async run(ctx) {
      const exit = await ctx.closeShared();
      const actual = { code: exit.code, signal: exit.signal };
      switch (exit.how) {
        case 'stdin-eof':
          return pass('exited after stdin closed', { actual });
        case 'crashed':
          return fail(
            `the server exited during the run (code ${exit.code}, signal ${exit.signal})\n${ctx.stderrTail()}`,
            { expected: 'running until stdin closes', actual },
          );
        default:
          return warn(`still running after stdin closed; it needed ${exit.how === 'sigterm' ? 'SIGTERM' : 'SIGKILL'}`, {
            expected: 'exit after stdin closes',
            actual,
          });
      }
    },
  },
];
