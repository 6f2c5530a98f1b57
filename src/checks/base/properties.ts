// Properties of the JSON-RPC envelope: method names, request ids, frames that are not requests.
import fc from 'fast-check';
import { type CheckDef, expectCode, fail, pass } from '../kit/check.js';
import { requirement } from '../kit/requirement.js';
import { SCHEMA_REVISIONS, STATELESS_REVISION, resultDefinition } from '../../schema/validators.js';
import { checkProperty } from '../kit/property-runner.js';
import { anyText } from '../../generate/schema-arbitrary.js';
import { isHeaderSafe } from '../../headers.js';
import { probeAnswerFault } from '../kit/probe-answer.js';

/** Methods some revision defines (or reserves: every notifications/* name is a notification, not a request). */
const isSpecMethod = (method: string) =>
  method.startsWith('notifications/') || SCHEMA_REVISIONS.some((r) => resultDefinition(r, method) !== undefined);

const UNKNOWN_METHODS = fc
  .oneof(
    { withCrossShrink: true },
    fc.stringMatching(/^[a-z][a-zA-Z0-9_-]{0,15}(\/[a-z][a-zA-Z0-9_-]{0,15}){0,3}$/), // shaped like MCP methods
    anyText({ minLength: 1, maxLength: 40 }),
  )
  .filter((method) => !isSpecMethod(method));
/**
 * On the stateless wire the method is mirrored in the Mcp-Method header over HTTP, which has no encoding for text a
 * header cannot carry: a server may rightly refuse such a name with -32020, so that wire gets header-safe names only.
 */
const HEADER_SAFE_METHODS = UNKNOWN_METHODS.filter(isHeaderSafe);

/** Ids of both JSON types a client may use, with their edges: 0, negative, ±(2^53−1), numeric-looking strings, any Unicode. */
const IDS = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 24 }),
  fc.integer({ min: -1000, max: 1000 }),
  fc.maxSafeInteger(),
  fc.nat().map(String),
);

/** Ids a session numbers its own requests with (1 up to far more than a run sends on one session). */
const SESSION_NUMBERED = /^[1-9]\d{0,5}$/;

const notJson = (text: string) => {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
};
/** One line each: a request cut short, bytes that are not JSON, JSON that is not a request (scalars, a request with a broken field). */
const MALFORMED_FRAMES = fc
  .oneof(
    { withCrossShrink: true },
    fc
      .tuple(
        fc.record({
          jsonrpc: fc.constant('2.0'),
          id: fc.nat(),
          method: fc.constantFrom('ping', 'tools/list', 'initialize'),
          params: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
        }),
        fc.nat(),
      )
      .map(([request, n]) => {
        const text = JSON.stringify(request);
        return text.slice(0, 1 + (n % (text.length - 1)));
      }),
    anyText({ minLength: 1, maxLength: 60 }).filter(notJson),
    fc
      .oneof(
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string(),
        fc.boolean(),
        fc.constant(null),
      )
      .map((v) => JSON.stringify(v)),
    // Broken for JSON-RPC itself; an id, when there is one, is unreadable, so any answer carries id null.
    fc
      .record({
        jsonrpc: fc.constantFrom('2.0', '1.0', 2, null, undefined),
        method: fc.constantFrom('ping', 42, null, {}, [], undefined),
        id: fc.constantFrom(undefined, true, {}, []),
        params: fc.constantFrom(undefined, 'x', 42, true),
      })
      .filter((f) => f.jsonrpc !== '2.0' || f.method !== 'ping' || f.id !== undefined || f.params !== undefined)
      .map((f) => JSON.stringify(f)),
  )
  .filter((frame) => !/[\r\n]/.test(frame));

export const ENVELOPE_PROPERTIES: CheckDef[] = [
  {
    id: 'base/method-not-found',
    revisions: SCHEMA_REVISIONS,
    title: 'An unknown method gets error -32601',
    requirement: requirement(
      'base.method-not-found',
      'MUST',
      'basic#responses',
      'A request for a method the server does not have gets the JSON-RPC error -32601 (Method not found)',
    ),
    async run(ctx) {
      return checkProperty(ctx, {
        id: this.id,
        what: 'unknown method names',
        arbitrary: ctx.profile.revision === STATELESS_REVISION ? HEADER_SAFE_METHODS : UNKNOWN_METHODS,
        examples: ['conformance/does-not-exist'],
        judge: async (method, request) => expectCode(await request(method, {}), -32601, 'an unknown method', 'fail'),
      });
    },
  },
  {
    id: 'base/response/id-types',
    scratch: true,
    revisions: SCHEMA_REVISIONS,
    title: 'Request ids of every type are echoed unchanged',
    requirement: requirement(
      'base.response.id-echo',
      'MUST',
      'basic#responses',
      'A response carries the same id as its request, with the same JSON type, for string and integer ids alike',
    ),
    async run(ctx) {
      // Its own session, where no id but the property's is in flight, and none it generates was used before (ids are
      // unique in a session: its initialize, or the checks before on a scratch session). 5 and "5" count as one value:
      // a server that answers one as the other must not have its answer taken for the other's.
      // The session numbers its own requests 1, 2, 3…: those (and their decimal strings) are left to it, whatever it
      // has sent so far, so that a seed draws the same ids however many turns a scratch session had before.
      const session = await ctx.ownSession();
      const unused = (id: string | number) => !SESSION_NUMBERED.test(String(id)) && !session.hasSent(id);
      return checkProperty(ctx, {
        id: this.id,
        what: 'request ids',
        arbitrary: IDS.filter(unused),
        examples: (['s-1', 0, 9007199254740991, -5, '123'] as const).filter(unused),
        key: String,
        session,
        async judge(id, request) {
          const reply = await request('ping', undefined, { id });
          const echoed = reply.message.id;
          if (!reply.looseId && echoed === id) return pass(`${typeof id} id echoed with its type`);
          return fail(
            `id ${JSON.stringify(id)} (${typeof id}) came back as ${JSON.stringify(echoed)} (${typeof echoed})`,
            { expected: { id }, actual: { id: echoed } },
          );
        },
      });
    },
  },
  {
    id: 'base/robustness/malformed-frames',
    scratch: true,
    revisions: SCHEMA_REVISIONS,
    title: 'A line that is not a valid request gets an error or nothing, and the server lives on',
    requirement: requirement(
      'stdio.alive-after-garbage',
      'MUST',
      'basic#messages',
      'A malformed line (invalid JSON, JSON that is not a request) never gets a result, and the server keeps serving the requests that follow',
    ),
    covers: ['base.parse-error', 'base.invalid-request'],
    transport: 'stdio',
    async run(ctx) {
      const session = await ctx.ownSession();
      return checkProperty(ctx, {
        id: this.id,
        what: 'malformed frames',
        arbitrary: MALFORMED_FRAMES,
        session,
        oneAtATime: true,
        async judge(frame, request) {
          const recording = session.record();
          session.sendRaw(`${frame}\n`);
          await request('ping');
          const answers = recording.stop().filter((e) => e.kind === 'response' && e.exchange?.method !== 'ping');
          const result = answers.find((e) => e.message && 'result' in e.message);
          if (result)
            return fail('a line that is not a valid request was answered with a result', {
              expected: 'an error, or no answer',
              actual: result.message,
            });
          // The answers the frame checks set aside as this line's are judged here, once.
          for (const { message, probe } of answers) {
            const fault = probe !== undefined && message && probeAnswerFault(message, ctx.profile.revision);
            if (fault)
              return fail(`the error answering a line that is not a valid request is malformed: ${fault}`, {
                expected: { jsonrpc: '2.0', id: null, error: { code: 'integer', message: 'string' } },
                actual: message,
              });
          }
          return pass(answers.length > 0 ? 'answered with an error' : 'ignored');
        },
      });
    },
  },
];
