// The reference MCP client: follows the official client contract (URL, MCP_CONFORMANCE_SCENARIO, …) over Streamable
// HTTP, both eras, and does what each scenario asks; over stdio it starts its server with `spawn` (the contract's, in
// the caller's process, or a real child process given `--stdio <command line>`). `connect(contract, fault)` runs it in
// the caller's process; a fault name makes it break exactly one rule (the project's fault rows).
import { spawn as spawnProcess } from 'node:child_process';

const INITIALIZE_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26'];
const STATELESS = '2026-07-28';
const CLIENT_INFO = { name: 'mcp-conformance-reference-client', version: '1.0.0' };

/** Reads an SSE body event by event, calling `onMessage` as each arrives; returns the last event id and retry. */
async function readSse(body, onMessage) {
  let lastId;
  let retry;
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.search(/\r?\n\r?\n/);
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      let data = '';
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith('data:')) data += line.slice(5).trimStart();
        else if (line.startsWith('id:')) lastId = line.slice(3).trim();
        else if (line.startsWith('retry:')) retry = Number(line.slice(6).trim());
      }
      if (data) await onMessage(JSON.parse(data));
      end = buffer.search(/\r?\n\r?\n/);
    }
  }
  return { lastId, retry };
}

/** The Mcp-Param-* headers of a call: each x-mcp-header parameter reachable through `properties` that has a value. */
function paramHeaders(schema, args, fault, path = []) {
  const out = {};
  for (const [key, sub] of Object.entries(schema?.properties ?? {})) {
    const value = [...path, key].reduce((v, k) => v?.[k], args);
    const name = sub?.['x-mcp-header'];
    if (typeof name === 'string' && value !== undefined && (value !== null || fault === 'null-param-header')) {
      const text = String(value);
      const plain = /^[\x20-\x7e]*$/.test(text) && text === text.trim() && !/^=\?base64\?.*\?=$/.test(text);
      out[`mcp-param-${name.toLowerCase()}`] = plain
        ? text
        : `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
    }
    Object.assign(out, paramHeaders(sub, args, fault, [...path, key]));
  }
  return out;
}

/**
 * Whether a tool's x-mcp-header annotations are all valid: non-empty HTTP tokens, unique whatever their case, on
 * string, number, integer or boolean parameters. Over Streamable HTTP a tool with an invalid one is left out.
 */
function validHeaders(schema, seen = new Set()) {
  const primitive = ['string', 'number', 'integer', 'boolean'];
  for (const sub of Object.values(schema?.properties ?? {})) {
    const name = sub?.['x-mcp-header'];
    if (name !== undefined) {
      if (typeof name !== 'string' || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) return false;
      if (seen.has(name.toLowerCase())) return false;
      seen.add(name.toLowerCase());
      const types = [sub.type ?? []].flat().filter((t) => t !== 'null');
      if (sub.type !== undefined && (types.length === 0 || types.some((t) => !primitive.includes(t)))) return false;
    }
    if (!validHeaders(sub, seen)) return false;
  }
  return true;
}

/**
 * Runs one scenario against `url`, or over stdio against the server `spawn` starts. `fault` (optional) names the one
 * rule to break: see test/fixtures/clients/faults.yaml.
 * @param {{ url: string, spawn?: () => any, scenario: string, protocolVersion?: string, signal?: AbortSignal }} contract
 * @param {string} [fault]
 */
export async function connect({ url, spawn, scenario, protocolVersion = '2025-11-25', context = {}, signal }, fault) {
  const stateless = protocolVersion === STATELESS;
  /** The version it asks for: the contract's, or (a fault) one that names no MCP revision or one not yet published. */
  const asked = { 'ancient-version': '1999-01-01', 'future-version': '2099-01-01' }[fault] ?? protocolVersion;
  const capabilities =
    fault === 'no-roots' || fault === 'silent-undeclared'
      ? {}
      : { roots: { listChanged: false }, sampling: {}, elicitation: { form: {} } };
  let sessionId;
  /** The inputSchema of each listed tool, for the headers its x-mcp-header parameters ask for. */
  const toolSchemas = new Map();
  let negotiated = stateless ? asked : undefined;
  let nextId = 1;
  const id = () => (fault === 'reuse-id' ? 1 : nextId++);
  const headers = (message) => {
    const h = {
      'content-type': 'application/json',
      accept: fault === 'accept-json-only' ? 'application/json' : 'application/json, text/event-stream',
    };
    if (sessionId && fault !== 'drop-session-id') h['mcp-session-id'] = sessionId;
    if (negotiated && negotiated !== '2025-03-26' && fault !== 'no-version-header')
      h['mcp-protocol-version'] = negotiated;
    if (stateless && message?.method && fault !== 'no-method-header') {
      h['mcp-method'] = message.method;
      if (message.params?.name !== undefined) h['mcp-name'] = String(message.params.name);
    }
    if (stateless && message?.method === 'tools/call' && fault !== 'no-param-headers')
      Object.assign(h, paramHeaders(toolSchemas.get(message.params?.name), message.params?.arguments, fault));
    return h;
  };
  const meta = () =>
    stateless && fault !== 'no-meta'
      ? {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': asked,
            'io.modelcontextprotocol/clientCapabilities': capabilities,
            ...(fault !== 'no-client-info' && { 'io.modelcontextprotocol/clientInfo': CLIENT_INFO }),
          },
        }
      : {};

  /** What the client answers to a request from the server. */
  const answerFor = (m) => {
    const reply = (result) => ({ jsonrpc: '2.0', id: m.id, result });
    if (m.method === 'ping') return fault === 'ignore-ping' ? undefined : reply({});
    if (m.method === 'roots/list') {
      if (!capabilities.roots)
        return fault === 'silent-undeclared'
          ? undefined
          : { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'roots not supported' } };
      return reply({
        roots: [{ uri: fault === 'bad-root' ? 'https://example.com/' : 'file:///tmp/project', name: 'project' }],
      });
    }
    if (m.method === 'sampling/createMessage')
      return reply(
        fault === 'bad-sampling'
          ? { content: 'hello' }
          : { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'reference' },
      );
    if (m.method === 'elicitation/create') {
      const props = m.params?.requestedSchema?.properties ?? {};
      const content = Object.fromEntries(Object.entries(props).map(([k, p]) => [k, p.default]));
      if (fault === 'no-defaults') delete content.name;
      if (fault === 'bad-elicit') content.count = 'three';
      return reply({ action: 'accept', content });
    }
    return { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'method not found' } };
  };

  const stdio = spawn ? overStdio(spawn(), answerFor, fault) : undefined;
  /** POSTs a message; returns the response to it (requests), answering server requests on the way. */
  const post = async (message, options = {}) => {
    if (stdio) return stdio.send(message);
    const res = await fetch(url, {
      method: 'POST',
      headers: headers(message),
      body: JSON.stringify(message),
      signal: options.signal ?? signal,
    });
    if (res.headers.get('mcp-session-id')) sessionId = res.headers.get('mcp-session-id');
    // The session ended: a new one (initialize without a session id), then the request again.
    if (res.status === 404 && sessionId && message.method !== 'initialize' && fault !== 'no-reinitialize') {
      sessionId = undefined;
      await open();
      return post(message, options);
    }
    if (!('id' in message) || !message.method) return undefined;
    const type = res.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream')) return res.json().catch(() => undefined);
    let done;
    const onMessage = async (m) => {
      if (m.method && 'id' in m) {
        const answer = answerFor(m);
        if (answer) await post(answer);
      } else if (m.id === message.id) done = m;
    };
    const sse = await readSse(res.body, onMessage);
    if (done) return done;
    // The stream closed before the response: resume after its retry.
    if (fault !== 'no-resume') {
      if (fault !== 'early-resume') await new Promise((r) => setTimeout(r, sse.retry ?? 1000));
      const again = await fetch(url, {
        method: 'GET',
        headers: { ...headers(), 'last-event-id': sse.lastId ?? '' },
        signal,
      });
      await readSse(again.body, onMessage);
      return done;
    }
    return undefined;
  };
  const request = (method, params = {}, options) =>
    post({ jsonrpc: '2.0', id: id(), method, params: { ...params, ...meta() } }, options);

  /** Opens the conversation: discover (2026-07-28), or initialize and notifications/initialized. */
  const open = async () => {
    if (stateless) {
      let reply = await request('server/discover');
      if (reply?.error?.code === -32022 && fault !== 'no-version-retry') reply = await request('server/discover');
      return;
    }
    if (fault === 'list-before-initialize') await request('tools/list');
    const init = await request('initialize', {
      protocolVersion: fault === 'bad-version' ? 'latest' : asked,
      capabilities,
      clientInfo: fault === 'no-client-version' ? { name: CLIENT_INFO.name } : CLIENT_INFO,
    });
    negotiated = INITIALIZE_REVISIONS.includes(init?.result?.protocolVersion)
      ? init.result.protocolVersion
      : protocolVersion;
    if (fault === 'list-before-initialized') await request('tools/list');
    if (fault === 'cancel-initialize')
      await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'late' } });
    await post({
      jsonrpc: '2.0',
      ...(fault === 'notification-with-id' && { id: id() }),
      method: 'notifications/initialized',
    });
  };
  await open();
  const listed = (await request('tools/list'))?.result?.tools ?? [];
  const headed = (t) => JSON.stringify(t.inputSchema ?? {}).includes('"x-mcp-header"');
  // Over Streamable HTTP a tool with invalid x-mcp-header annotations is excluded from the list.
  const tools =
    stdio || fault === 'keep-invalid-tools'
      ? listed
      : listed.filter((t) => validHeaders(t.inputSchema) && !(fault === 'drop-header-tools' && headed(t)));
  for (const tool of tools) toolSchemas.set(tool.name, tool.inputSchema);
  /** A tool's inputSchema as the client holds it: as listed, or (strip-schema) without the keywords it did not know. */
  const keptSchema = (name) => {
    const schema = toolSchemas.get(name) ?? {};
    if (fault !== 'strip-schema') return schema;
    const { $schema: _s, $defs: _d, additionalProperties: _a, ...kept } = schema;
    return kept;
  };
  /** The last requestState a server sent, for the leak-state fault (a client that shares it across calls). */
  let lastState;
  const call = async (name, args = {}) => {
    const leak = fault === 'leak-state' && lastState !== undefined ? { requestState: lastState } : {};
    const first = await request('tools/call', { name, arguments: args, ...leak });
    const result = first?.result;
    // A result without resultType is complete (a server of an earlier revision).
    const incomplete =
      fault === 'no-default-complete'
        ? result !== undefined && result.resultType !== 'complete'
        : result?.resultType === 'input_required';
    if (!incomplete) return first;
    if (result.requestState !== undefined) lastState = result.requestState;
    const inputResponses = Object.fromEntries(
      Object.entries(result.inputRequests ?? {}).map(([k, r]) => [k, answerFor({ id: 0, ...r })?.result]),
    );
    const requestState =
      fault === 'alter-state' && result.requestState !== undefined
        ? `${result.requestState}x`
        : fault === 'invent-state'
          ? (result.requestState ?? 'client-made-state')
          : fault === 'leak-state'
            ? (result.requestState ?? lastState)
            : result.requestState;
    const params = { name, arguments: args, inputResponses, ...(requestState !== undefined && { requestState }) };
    // The retry is a new request: a new id (the retry-same-id fault reuses the first one's).
    const retryId = fault === 'retry-same-id' ? first.id : id();
    return post({ jsonrpc: '2.0', id: retryId, method: 'tools/call', params: { ...params, ...meta() } });
  };
  /** Calls never_answers with a progress token, calls add_numbers meanwhile, and gives up on the first after `ms`. */
  const abandon = async (ms) => {
    const give = new AbortController();
    const hung = {
      jsonrpc: '2.0',
      id: id(),
      method: 'tools/call',
      params: { name: 'never_answers', arguments: {}, _meta: { progressToken: 'p-1' } },
    };
    const waiting = post(hung, { signal: give.signal }).catch(() => undefined);
    const token = fault === 'reuse-progress-token' ? 'p-1' : 'p-2';
    await post({
      jsonrpc: '2.0',
      id: id(),
      method: 'tools/call',
      params: { name: 'add_numbers', arguments: { a: 1, b: 2 }, _meta: { progressToken: token } },
    });
    await new Promise((r) => setTimeout(r, ms));
    give.abort();
    await waiting;
    if (fault !== 'no-cancel')
      await post({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: hung.id, reason: 'timed out' },
      });
  };
  if (scenario === 'request-abandoned') await abandon(context.requestTimeoutMs ?? 300);
  if (scenario === 'http-custom-headers')
    for (const c of context.toolCalls ?? []) await call(c.name, c.arguments ?? {});
  for (const tool of tools) {
    if (['never_answers', 'set_region', 'set_zone'].includes(tool.name)) continue;
    if (tool.name === 'add_numbers' && scenario === 'tools_call')
      await call('add_numbers', fault === 'bad-arguments' ? { a: 'one', b: 2 } : { a: 1, b: 2 });
    // Two calls at once, each with its own input request and requestState.
    else if (tool.name === 'test_mrtr_echo_state')
      await Promise.all([call(tool.name, { n: 1 }), call(tool.name, { n: 2 })]);
    else if (scenario === 'http-invalid-tool-headers') await call(tool.name, { region: 'us-west1' });
    else if (scenario === 'json-schema-2020-12-preservation') {
      // The focal tool's inputSchema goes back to the echo tool; the focal tool itself is not called.
      if (tool.name === 'json_schema_echo') await call(tool.name, { schema: keptSchema('json_schema_2020_12_tool') });
    } else if (tool.name !== 'add_numbers' && tool.name !== 'set_display_name') await call(tool.name);
  }
  if (fault === 'unlisted-tool') await call('not_listed');
  if (fault === 'fetch-ref') {
    for (const tool of tools)
      for (const ref of JSON.stringify(tool.inputSchema).match(/"\$ref":"(http[^"]+)"/g) ?? [])
        await fetch(JSON.parse(`{${ref}}`).$ref, { signal });
  }
  if (fault === 'garbage') {
    if (stdio) stdio.write('not json\n');
    else await fetch(url, { method: 'POST', headers: headers(), body: 'not json', signal });
  }
  if (fault === 'null-id') await post({ jsonrpc: '2.0', id: null, method: 'ping', params: meta() });
  if (sessionId && fault !== 'no-delete') await fetch(url, { method: 'DELETE', headers: headers(), signal });
  if (stdio) await stdio.close();
}

/**
 * The stdio side: one message per line on the server's stdin, its stdout read line by line; the server's requests
 * answered as they come. close() ends its stdin and waits for it to exit (SIGTERM only if it does not, then SIGKILL).
 */
function overStdio(child, answerFor, fault) {
  const waiting = new Map();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let alive = true;
  child.once('exit', () => {
    alive = false;
    for (const resolve of waiting.values()) resolve(undefined);
  });
  const write = (text) => alive && child.stdin.write(text);
  // pretty-print: each message spread over lines (embedded newlines).
  const send1 = (m) => write(`${fault === 'pretty-print' ? JSON.stringify(m, null, 2) : JSON.stringify(m)}\n`);
  let rest = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      let m;
      try {
        m = JSON.parse(line);
      } catch {
        continue;
      }
      if (m.method && 'id' in m) {
        const answer = answerFor(m);
        if (answer) send1(answer);
      } else waiting.get(m.id)?.(m);
    }
  });
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref?.());
  return {
    write,
    send(message) {
      if (!alive) return undefined;
      const reply = 'id' in message && message.method ? new Promise((r) => waiting.set(message.id, r)) : undefined;
      send1(message);
      return reply;
    },
    async close() {
      if (!alive) return;
      if (fault === 'sigterm-first') child.kill('SIGTERM');
      else child.stdin.end();
      if (await Promise.race([exited.then(() => true), wait(2000)])) return;
      child.kill('SIGTERM');
      if (await Promise.race([exited.then(() => true), wait(2000)])) return;
      child.kill('SIGKILL');
    },
  };
}

/** Splits a `{server}` command line into words (single quotes as a shell would take them). */
const words = (line) =>
  [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => m[2] ?? m[1].replaceAll("'\\''", "'"));

// As a command: `node client.mjs <url>` with the contract's environment.
// Over stdio: `node client.mjs --stdio '<server command line>'` (what `{server}` expands to).
if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--stdio');
  const server = at > 0 ? words(process.argv[at + 1] ?? '') : undefined;
  await connect({
    url: process.argv.at(-1),
    ...(server && { spawn: () => spawnProcess(server[0], server.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] }) }),
    scenario: process.env.MCP_CONFORMANCE_SCENARIO ?? 'initialize',
    protocolVersion: process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2025-11-25',
    context: JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}'),
  });
  // Keep-alive sockets would hold the process open after its work is done.
  process.exit(0);
}
