// Frame rules judged on single frames, where a run cannot produce the frame at will.
import { describe, expect, it } from 'vitest';
import { FRAME_RULES } from '../src/suite/frame-rules.js';
import type { InboundEvent } from '../src/session/session.js';

const rule = (id: string) => FRAME_RULES.find((r) => r.id === id)!;
const response = (message: Record<string, unknown>): InboundEvent =>
  ({ kind: 'response', message, line: { entry: { t: 0, dir: 'recv', text: JSON.stringify(message) } }, revision: '2025-11-25', session: 1 }) as unknown as InboundEvent;

describe('an invalid request answered with its own invalid id echoed back (mcp-go does this)', () => {
  const frame = response({ jsonrpc: '2.0', id: true, error: { code: -32600, message: 'Invalid JSON-RPC version' } });
  it('is not called unsolicited: it answers a line the client sent', () => {
    expect(rule('base/response/unsolicited').inspect(frame, {})).toEqual([]);
  });
  it('fails schema/errors: the id of an answer to an invalid request MUST be null', () => {
    expect(rule('schema/errors').inspect(frame, {})?.map((f) => f.severity)).toEqual(['fail']);
  });
  it('nor is a result echoing an invalid id (mcp-go serves `"id": []`): malformed-frames judges that', () => {
    const served = response({ jsonrpc: '2.0', id: [], result: {} });
    expect(rule('base/response/unsolicited').inspect(served, {})).toEqual([]);
  });
  it('a response with a valid id that answers nothing is still unsolicited', () => {
    const stray = response({ jsonrpc: '2.0', id: 987654, result: {} });
    expect(rule('base/response/unsolicited').inspect(stray, {})?.map((f) => f.severity)).toEqual(['fail']);
  });
});
