// The test server's own answers are what a server of the scenario's revision sends: every result it gives validates
// against the project's schema of that revision (2026-07-28: resultType, and ttlMs/cacheScope on lists), and a
// 2025-era scenario has no server/discover.
import { describe, expect, it } from 'vitest';
import { CLIENT_SCENARIOS } from '../src/checks/client-side/index.js';
import { resultDefinition, validate } from '../src/schema/validators.js';
import { Conversation, META, STATELESS } from '../src/transport/test-server/conversation.js';
import { httpTestServer } from '../src/transport/test-server/endpoint.js';

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
      // A `hang` tool never answers: nothing to validate; a `no-result-type` one answers invalidly on purpose.
      ...scenario.tools
        .filter((t) => t.does !== 'hang' && t.does !== 'no-result-type')
        .map(
          (t) =>
            ['tools/call', params({ name: t.name, arguments: { a: 1, b: 2 } })] as [string, Record<string, unknown>],
        ),
    ];
    const broken: string[] = [];
    let checked = 0;
    for (const [method, p] of requests) {
      const reply = await conv.handle({ jsonrpc: '2.0', id: checked, method, params: p }, undefined);
      if (typeof reply !== 'object') continue;
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

describe('the test server over HTTP answers with the status each revision names', () => {
  const serve = async (revision: string) => {
    const scenario = CLIENT_SCENARIOS.find((s) => s.name === 'tools_call')!;
    const { server } = httpTestServer(new Conversation(scenario, revision, 100));
    return { server, url: await server.listen() };
  };
  const send = async (url: string, headers: Record<string, string>, body: unknown, method = 'POST') => {
    const res = await fetch(url, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      ...(method === 'POST' && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return {
      status: res.status,
      code: text ? (JSON.parse(text) as { error?: { code?: number } }).error?.code : undefined,
    };
  };
  const rpc = (method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 1, method, params });

  it('2025-11-25: 400 without the session id, 404 for an unknown one, 400 for an unsupported MCP-Protocol-Version', async () => {
    const { server, url } = await serve('2025-11-25');
    try {
      const init = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(
          rpc('initialize', {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'p', version: '1' },
          }),
        ),
      });
      const sid = init.headers.get('mcp-session-id')!;
      const v = { 'mcp-protocol-version': '2025-11-25' };
      expect(await send(url, v, rpc('tools/list'))).toEqual({ status: 400, code: -32000 });
      expect(await send(url, { ...v, 'mcp-session-id': 'not-issued' }, rpc('tools/list'))).toEqual({
        status: 404,
        code: -32001,
      });
      expect(
        await send(url, { 'mcp-session-id': sid, 'mcp-protocol-version': '1999-01-01' }, rpc('tools/list')),
      ).toEqual({ status: 400, code: -32000 });
      expect((await send(url, { ...v, 'mcp-session-id': sid }, rpc('tools/list'))).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('2026-07-28: 400 for a version, header or _meta refusal, 404 for an unknown method, 405 for GET and DELETE', async () => {
    const { server, url } = await serve(STATELESS);
    const h = (method: string, name?: string) => ({
      'mcp-protocol-version': STATELESS,
      'mcp-method': method,
      ...(name && { 'mcp-name': name }),
    });
    try {
      expect(await send(url, h('tools/list'), rpc('tools/list', { _meta: meta }))).toEqual({
        status: 200,
        code: undefined,
      });
      expect(await send(url, h('tools/list'), rpc('tools/list'))).toEqual({ status: 400, code: -32602 });
      const old = { ...meta, [META.version]: '2025-11-25' };
      expect(
        await send(
          url,
          { ...h('tools/list'), 'mcp-protocol-version': '2025-11-25' },
          rpc('tools/list', { _meta: old }),
        ),
      ).toEqual({ status: 400, code: -32022 });
      expect(
        await send(url, h('tools/call', 'other'), rpc('tools/call', { name: 'add_numbers', _meta: meta })),
      ).toEqual({ status: 400, code: -32020 });
      expect(await send(url, {}, rpc('initialize', { protocolVersion: '2025-11-25' }))).toEqual({
        status: 400,
        code: -32020,
      });
      expect(await send(url, h('nothing/here'), rpc('nothing/here', { _meta: meta }))).toEqual({
        status: 404,
        code: -32601,
      });
      expect((await send(url, {}, undefined, 'GET')).status).toBe(405);
      expect((await send(url, {}, undefined, 'DELETE')).status).toBe(405);
    } finally {
      await server.close();
    }
  });
});
