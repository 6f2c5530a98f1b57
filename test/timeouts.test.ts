import { describe, expect, it } from 'vitest';
import { slowWork, timeoutVerdict } from '../src/checks/kit/timeouts.js';
import type { ServerProfile } from '../src/discovery/profile.js';
import { type Exchange, RequestTimeout } from '../src/session/session.js';

const profile = {
  tools: [{ name: 'search' }],
  resources: [{ uri: 'file:///a' }],
  prompts: [{ name: 'greet' }],
} as unknown as ServerProfile;
const timeout = (method: string, params?: unknown) =>
  new RequestTimeout(method, 10_000, {
    id: 1,
    method,
    params,
    sent: { seq: 0, dir: 'send', t: 0, bytes: 0, text: '' },
  } satisfies Exchange);

describe('a timeout is judged by what was asked', () => {
  it('work that may be slow: a listed tool, resource or prompt, a task result', () => {
    expect(slowWork(profile, 'tools/call', { name: 'search' })).toBe('tool search');
    expect(slowWork(profile, 'resources/read', { uri: 'file:///a' })).toBe('resource file:///a');
    expect(slowWork(profile, 'prompts/get', { name: 'greet' })).toBe('prompt greet');
    expect(slowWork(profile, 'tasks/result', { taskId: 't' })).toBe('a task result');
    expect(timeoutVerdict(profile, timeout('tools/call', { name: 'search', arguments: {} }))).toEqual({
      status: 'warn',
      message:
        'no answer from tool search (tools/call) within 10.0 s: slow work may take longer (--timeout raises the limit)',
    });
  });

  it('what needs no slow work must be answered: unknown methods, ping, lists, unknown names, malformed params', () => {
    for (const [method, params] of [
      ['conformance/does-not-exist', {}],
      ['ping', undefined],
      ['initialize', {}],
      ['tools/list', { cursor: '!bad' }],
      ['tools/call', { name: 'not-listed' }],
      ['tools/call', {}],
      ['resources/read', { uri: 'file:///unknown' }],
      ['prompts/get', { name: 42 }],
    ] as const) {
      expect(slowWork(profile, method, params), method).toBeUndefined();
      const err = timeout(method, params);
      // The request left unanswered goes with the failure: answered late after all, it becomes a warning.
      expect(timeoutVerdict(profile, err)).toEqual({
        status: 'fail',
        message: `no answer to ${method} within 10.0 s: it needs no slow work, and every request MUST get a response`,
        silent: [err.exchange],
      });
    }
  });
});
