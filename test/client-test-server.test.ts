// The test server's own answers are what a server of the scenario's revision sends: every result it gives validates
// against the project's schema of that revision (2026-07-28: resultType, and ttlMs/cacheScope on lists), and a
// 2025-era scenario has no server/discover.
import { describe, expect, it } from 'vitest';
import { CLIENT_SCENARIOS } from '../src/checks/client-side/index.js';
import { resultDefinition, validate } from '../src/schema/validators.js';
import { Conversation, DEFERRED, META, STATELESS } from '../src/transport/test-server/conversation.js';

const CASES = CLIENT_SCENARIOS.flatMap((s) => s.revisions.map((r) => [s.name, r] as const));
const meta = {
  [META.version]: STATELESS,
  [META.capabilities]: {},
  [META.clientInfo]: { name: 'probe', version: '1.0.0' },
};

describe('the test server', () => {
  it.each(CASES)('answers %s @ %s with results valid for that revision', async (name, revision) => {
    const scenario = CLIENT_SCENARIOS.find((s) => s.name === name)!;
    // The first-version refusal is the scenario's point, not a result: leave it out here.
    const conv = new Conversation({ ...scenario, refuseFirstVersion: false }, revision, 100);
    const params = (p: Record<string, unknown> = {}) => (revision === STATELESS ? { ...p, _meta: meta } : p);
    const requests: [string, Record<string, unknown>][] = [
      ...(revision === STATELESS
        ? [['server/discover', params()] as [string, Record<string, unknown>]]
        : [
            [
              'initialize',
              { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'p', version: '1' } },
            ] as [string, Record<string, unknown>],
          ]),
      ['tools/list', params()],
      ['resources/list', params()],
      ['prompts/list', params()],
      ['resources/templates/list', params()],
      ...scenario.tools.map(
        (t) => ['tools/call', params({ name: t.name, arguments: { a: 1, b: 2 } })] as [string, Record<string, unknown>],
      ),
    ];
    const broken: string[] = [];
    let checked = 0;
    for (const [method, p] of requests) {
      const reply = await conv.handle({ jsonrpc: '2.0', id: checked, method, params: p }, undefined);
      if (reply === DEFERRED || reply === undefined) continue;
      expect(reply.error, `${method}: ${JSON.stringify(reply.error)}`).toBeUndefined();
      const result = reply.result as Record<string, unknown>;
      const def = result.resultType === 'input_required' ? 'InputRequiredResult' : resultDefinition(revision, method)!;
      const v = validate(revision, def, result);
      if (!v.ok) broken.push(`${method} (${def}): ${v.errors.join('; ')}`);
      checked++;
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('is a 2025-era server in a 2025-era scenario: server/discover is method not found', async () => {
    const conv = new Conversation(CLIENT_SCENARIOS[0]!, '2025-11-25', 100);
    const reply = await conv.handle({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} }, undefined);
    expect(reply).toMatchObject({ error: { code: -32601 } });
  });
});
