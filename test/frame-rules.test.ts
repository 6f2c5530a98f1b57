// Frame rules judged on single frames, where a run cannot produce the frame at will.
import { describe, expect, it } from 'vitest';
import { FRAME_RULES } from '../src/checks/index.js';
import type { InboundEvent } from '../src/session/session.js';
import { validate } from '../src/schema/validators.js';

const rule = (id: string) => FRAME_RULES.find((r) => r.id === id)!;
const response = (message: Record<string, unknown>): InboundEvent =>
  ({
    kind: 'response',
    message,
    line: { entry: { t: 0, dir: 'recv', text: JSON.stringify(message) } },
    revision: '2025-11-25',
    session: 1,
  }) as unknown as InboundEvent;

// An answer to a malformed line the suite sent (mcp-go echoes the line's own invalid id) never reaches the rules: the
// session marks it (InboundEvent.probe) and the monitor sets it aside for the check that sent the line, so that one
// fault counts once (the fault rows echo-invalid-id and null-id-served show it). Any other such frame is the rules'.
describe('a response with an id no request can carry, answering no line the client sent', () => {
  const frame = response({ jsonrpc: '2.0', id: true, error: { code: -32600, message: 'Invalid JSON-RPC version' } });
  it('is unsolicited', () => {
    expect(
      rule('base/response/unsolicited')
        .inspect(frame, {})
        ?.map((f) => f.severity),
    ).toEqual(['fail']);
  });
  it('fails schema/errors: the id of an error answering unreadable input MUST be null', () => {
    expect(
      rule('schema/errors')
        .inspect(frame, {})
        ?.map((f) => f.severity),
    ).toEqual(['fail']);
  });
  it('a response with a valid id that answers nothing is unsolicited too', () => {
    const stray = response({ jsonrpc: '2.0', id: 987654, result: {} });
    expect(
      rule('base/response/unsolicited')
        .inspect(stray, {})
        ?.map((f) => f.severity),
    ).toEqual(['fail']);
  });
});

describe('schema findings of a content block (the official fixture embeds a prompt argument as a resource uri)', () => {
  const embedded = (uri: unknown, extra: Record<string, unknown> = {}) => ({
    messages: [
      { role: 'user', content: { type: 'resource', resource: { uri, mimeType: 'text/plain', text: 'x', ...extra } } },
    ],
  });
  for (const revision of ['2025-11-25', '2026-07-28']) {
    const complete = revision === '2026-07-28' ? { resultType: 'complete' } : {};
    it(`a format finding alone is named with its format, not a failure of the shape (${revision})`, () => {
      const r = validate(revision, 'GetPromptResult', { ...embedded('conformance'), ...complete });
      expect(r).toEqual({
        ok: false,
        errors: ['/messages/0/content/resource/uri must match format "uri"'],
        formats: ['uri'],
      });
    });
    it(`reports the errors of the branch whose type matched, not of every other content type (${revision})`, () => {
      const r = validate(revision, 'GetPromptResult', { ...embedded(42), ...complete });
      expect(r.ok).toBe(false);
      const errors = r.ok ? [] : r.errors;
      expect(errors.join('\n')).toContain('/messages/0/content/resource/uri must be string');
      expect(errors.join('\n')).not.toMatch(/must be one of "text"|must have property "data"/);
      expect(r.ok || r.formats).toBeUndefined();
    });
  }
  const result = (message: Record<string, unknown>): InboundEvent =>
    ({
      kind: 'response',
      message,
      exchange: { id: 1, method: 'prompts/get', params: {} },
      line: { entry: { t: 0, dir: 'recv', text: '' } },
      revision: '2025-11-25',
      session: 1,
    }) as unknown as InboundEvent;
  it('schema/results warns on it, naming the format', () => {
    const found = rule('schema/results').inspect(
      result({ jsonrpc: '2.0', id: 1, result: embedded('docs/readme') }),
      {},
    );
    expect(found?.map((f) => [f.severity, f.message])).toEqual([
      [
        'warn',
        'result of prompts/get does not validate against GetPromptResult (2025-11-25) only by format "uri" (an annotation of JSON Schema 2020-12)',
      ],
    ]);
  });
});

describe('an HTTP error body answering a POST whose request had id null (the null-id probe)', () => {
  const body = {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32602, message: 'Invalid params: missing _meta protocol fields' },
  };
  const tied = {
    kind: 'response',
    message: body,
    line: { entry: { t: 0, dir: 'recv', text: '' }, answers: null },
    revision: '2026-07-28',
    session: 1,
  } as unknown as InboundEvent;
  it('answers that POST: it is not unsolicited', () => {
    expect(rule('base/response/unsolicited').inspect(tied, {})).toEqual([]);
  });
  it('and its id null is no schema failure', () => {
    expect(rule('schema/errors').inspect(tied, {})).toEqual([]);
  });
  it('the same body that came back on no POST is unsolicited', () => {
    const stray = { ...tied, line: { entry: tied.line.entry } } as InboundEvent;
    expect(
      rule('base/response/unsolicited')
        .inspect(stray, {})
        ?.map((f) => f.severity),
    ).toEqual(['fail']);
  });
});
