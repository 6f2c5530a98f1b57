// The conversation rules' tolerance for what crosses on the wire, judged on single frames: a run cannot make a
// server's notification cross a request at will.
import { describe, expect, it } from 'vitest';
import { CONVERSATION_RULES } from '../src/checks/conversation/rules.js';
import type { Exchange, InboundEvent } from '../src/session/session.js';

const rule = (id: string) => CONVERSATION_RULES.find((r) => r.id === id)!;
let sessions = 100_000;
let seq = 0;
const exchange = (method: string, params: unknown): Exchange =>
  ({ id: ++seq, method, params, sent: { seq, t: 0, dir: 'send', text: '' } }) as Exchange;

/** Frames of one session of its own, at `t` ms. */
function session(revision = '2025-11-25') {
  const number = ++sessions;
  const frame = (
    kind: InboundEvent['kind'],
    message: Record<string, unknown>,
    t: number,
    extra: Partial<InboundEvent> = {},
  ): InboundEvent =>
    ({
      kind,
      message,
      line: { entry: { seq: ++seq, t, dir: 'recv', text: JSON.stringify(message) } },
      revision,
      session: number,
      inFlight: () => [],
      ...extra,
    }) as InboundEvent;
  return {
    answered: (x: Exchange, t = 0) => frame('response', { jsonrpc: '2.0', id: x.id, result: {} }, t, { exchange: x }),
    notification: (method: string, params: unknown, t = 0, inFlight: Exchange[] = []) =>
      frame('notification', { jsonrpc: '2.0', method, params }, t, { inFlight: () => inFlight }),
  };
}

const severities = (found: { severity: string }[] | undefined) => found?.map((f) => f.severity);

describe('resources/updated/subscribed', () => {
  const updated = rule('resources/updated/subscribed');
  const README = 'ref://docs/readme';

  it('takes an update that crossed the subscribe (its request still in flight), and one under a subscribed URI', () => {
    const s = session();
    const subscribe = exchange('resources/subscribe', { uri: 'file:///dir' });
    expect(
      updated.inspect(s.notification('notifications/resources/updated', { uri: 'file:///dir/a.txt' }, 0, [subscribe]), {
        transport: 'stdio',
      }),
    ).toEqual([]);
    updated.inspect(s.answered(subscribe), { transport: 'stdio' });
    expect(
      updated.inspect(s.notification('notifications/resources/updated', { uri: 'file:///dir/a.txt' }), {
        transport: 'stdio',
      }),
    ).toEqual([]);
    expect(
      severities(
        updated.inspect(s.notification('notifications/resources/updated', { uri: 'file:///dirt' }), {
          transport: 'stdio',
        }),
      ),
    ).toEqual(['warn']);
  });

  it('warns after the unsubscribe over stdio (one ordered stream), but not over HTTP (streams arrive in no set order)', () => {
    for (const [transport, expected] of [
      ['stdio', ['warn']],
      ['http', []],
    ] as const) {
      const s = session();
      updated.inspect(s.answered(exchange('resources/subscribe', { uri: README })), { transport });
      updated.inspect(s.answered(exchange('resources/unsubscribe', { uri: README })), { transport });
      expect(
        severities(updated.inspect(s.notification('notifications/resources/updated', { uri: README }), { transport })),
      ).toEqual(expected);
    }
  });
});

describe('logging/messages/threshold', () => {
  const threshold = rule('logging/messages/threshold');
  const info = { level: 'info', data: 'x' };

  it('judges only sessions that set a level, and over HTTP not a message that may have been sent before setLevel was served', () => {
    for (const [transport, at, expected] of [
      ['stdio', 10, ['warn']],
      ['http', 10, []],
      ['http', 5000, ['warn']],
    ] as const) {
      const s = session();
      expect(threshold.inspect(s.notification('notifications/message', info), { transport })).toBeUndefined();
      threshold.inspect(s.answered(exchange('logging/setLevel', { level: 'error' })), { transport });
      expect(severities(threshold.inspect(s.notification('notifications/message', info, at), { transport }))).toEqual(
        expected,
      );
      expect(
        threshold.inspect(s.notification('notifications/message', { level: 'critical', data: 'x' }, at), { transport }),
      ).toEqual([]);
    }
  });
});

describe('capabilities/list-changed/declared', () => {
  it('fails without listChanged: true, and warns in 2025-03-26, which had no "only negotiated capabilities" rule', () => {
    const gate = rule('capabilities/list-changed/declared');
    const capabilities = { tools: {}, prompts: { listChanged: true } };
    expect(
      severities(gate.inspect(session().notification('notifications/tools/list_changed', undefined), { capabilities })),
    ).toEqual(['fail']);
    expect(
      severities(
        gate.inspect(session('2025-03-26').notification('notifications/tools/list_changed', undefined), {
          capabilities,
        }),
      ),
    ).toEqual(['warn']);
    expect(
      gate.inspect(session().notification('notifications/prompts/list_changed', undefined), { capabilities }),
    ).toEqual([]);
  });
});
