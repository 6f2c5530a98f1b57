// Self-test of the bundled reference server and a few faults of the faulty fixture.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REFERENCE = fileURLToPath(new URL('../../examples/reference-server/server.mjs', import.meta.url));
const FAULTY = fileURLToPath(new URL('../fixtures/servers/faulty-server.mjs', import.meta.url));
const REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

// biome-ignore lint/suspicious/noExplicitAny: the tests read deep into the server's answers, whose shapes they assert
type Json = any;

/** A tiny newline-delimited JSON-RPC client over a child process's stdio. */
class Client {
  readonly proc: ChildProcess;
  readonly lines: string[] = [];
  readonly messages: Json[] = [];
  stderr = '';
  private nextId = 1;
  private buffer = '';
  private listeners: Array<() => void> = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(script: string, env: Record<string, string> = {}) {
    this.proc = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    this.proc.stdout!.setEncoding('utf8');
    this.proc.stdout!.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        this.lines.push(line);
        try {
          this.messages.push(JSON.parse(line));
        } catch {
          // non-JSON lines stay in `lines` only
        }
        this.listeners.forEach((l) => l());
      }
    });
    this.proc.stderr!.on('data', (chunk) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve({ code, signal })));
  }

  raw(text: string): void {
    this.proc.stdin!.write(text);
  }

  send(message: Json): void {
    this.raw(JSON.stringify(message) + '\n');
  }

  notify(method: string, params?: Json): void {
    this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  // Every wait here expects its message: the limit only ends a test whose server went silent, so it leaves a loaded
  // machine's slow start room.
  waitFor(predicate: (m: Json) => boolean, timeoutMs = 20_000): Promise<Json> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.messages.find(predicate);
        if (found === undefined) return false;
        this.listeners = this.listeners.filter((l) => l !== listener);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const listener = () => void check();
      const timer = setTimeout(() => {
        this.listeners = this.listeners.filter((l) => l !== listener);
        reject(new Error(`timed out; stdout so far:\n${this.lines.join('\n')}\nstderr:\n${this.stderr}`));
      }, timeoutMs);
      if (!check()) this.listeners.push(listener);
    });
  }

  /** Sends a request and resolves with the whole response (result or error). */
  request(method: string, params?: Json, id: Json = this.nextId++): Promise<Json> {
    const message: Json = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    this.send(message);
    return this.waitFor((m) => m.id === id && ('result' in m || 'error' in m) && !('method' in m));
  }

  async result(method: string, params?: Json): Promise<Json> {
    const response = await this.request(method, params);
    expect(response.error, `${method} failed: ${JSON.stringify(response.error)}`).toBeUndefined();
    return response.result;
  }

  async errorCode(method: string, params?: Json): Promise<number> {
    const response = await this.request(method, params);
    expect(response.error, `${method} should fail`).toBeDefined();
    return response.error.code;
  }

  async initialize(protocolVersion: string = REVISIONS[0]): Promise<Json> {
    const result = await this.result('initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'self-test', version: '0.0.0' },
    });
    this.notify('notifications/initialized');
    return result;
  }

  /** Follows nextCursor to the end and returns every item. */
  async listAll(method: string, key: string): Promise<Json[]> {
    const items: Json[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const result = await this.result(method, cursor === undefined ? {} : { cursor });
      items.push(...result[key]);
      cursor = result.nextCursor;
      if (cursor === undefined) return items;
      expect(typeof cursor).toBe('string');
    }
    throw new Error(`${method}: too many pages`);
  }

  closeStdin(): void {
    this.proc.stdin!.end();
  }

  kill(): void {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
  }
}

const clients: Client[] = [];
const start = (script = REFERENCE, env: Record<string, string> = {}) => {
  const c = new Client(script, env);
  clients.push(c);
  return c;
};
afterAll(() => clients.forEach((c) => c.kill()));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('reference server', () => {
  it.each(REVISIONS)('negotiates %s', async (rev) => {
    const c = start();
    const init = await c.initialize(rev);
    expect(init.protocolVersion).toBe(rev);
    expect(init.capabilities).toEqual({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
      completions: {},
      // Tasks exist in 2025-11-25 only.
      ...(rev === '2025-11-25' ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : {}),
    });
    expect(init.serverInfo.name).toBe('mcp-reference-server');
    expect('title' in init.serverInfo).toBe(rev !== '2025-03-26');
    expect('icons' in init.serverInfo).toBe(rev === '2025-11-25');
    const tools = await c.listAll('tools/list', 'tools');
    const add = tools.find((t) => t.name === 'add');
    expect('outputSchema' in add).toBe(rev !== '2025-03-26');
    const sum = await c.result('tools/call', { name: 'add', arguments: { a: 2, b: 3 } });
    if (rev === '2025-03-26') expect(sum.structuredContent).toBeUndefined();
    else expect(sum.structuredContent).toEqual({ sum: 5 });
    expect(JSON.parse(sum.content[0].text)).toEqual({ sum: 5 });
  });

  it('counter-offers 2025-11-25 for an unsupported version', async () => {
    const c = start();
    expect((await c.initialize('1999-01-01')).protocolVersion).toBe('2025-11-25');
  });

  it('serves every feature and error code over one session, then exits on stdin close', async () => {
    const c = start();
    expect(await c.result('ping')).toEqual({}); // before initialize
    await c.initialize();
    // after initialized: one info log and one server-to-client ping, which we answer
    await c.waitFor((m) => m.method === 'notifications/message' && m.params.level === 'info' && !('id' in m));
    const serverPing = await c.waitFor((m) => m.method === 'ping' && typeof m.id === 'string');
    c.send({ jsonrpc: '2.0', id: serverPing.id, result: {} });

    const tools = await c.listAll('tools/list', 'tools');
    expect(tools.map((t) => t.name)).toEqual([
      'echo',
      'add',
      'search-docs',
      'get-image',
      'write-note',
      'count-words',
      'index-docs',
      'count-slowly',
      'ask-llm',
      'confirm-choice',
      'sign-in',
      'list-roots',
    ]);
    expect(tools.filter((t) => 'execution' in t).map((t) => [t.name, t.execution.taskSupport])).toEqual([
      ['count-words', 'optional'],
      ['index-docs', 'required'],
    ]);
    for (const t of tools) {
      expect(t.name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
      expect(t.inputSchema.type).toBe('object');
    }
    const resources = await c.listAll('resources/list', 'resources');
    expect(resources.map((r) => r.uri)).toEqual([
      'ref://docs/readme',
      'ref://docs/changelog',
      'ref://assets/logo',
      'ui://reference/sum.html',
    ]);
    // The MCP App of add: its tool names the ui:// resource, listed and read as text/html;profile=mcp-app with _meta.ui.
    expect(tools.find((t) => t.name === 'add')._meta.ui.resourceUri).toBe('ui://reference/sum.html');
    expect(resources[3]).toMatchObject({
      mimeType: 'text/html;profile=mcp-app',
      _meta: { ui: { prefersBorder: true } },
    });
    for (const r of resources) {
      const { contents } = await c.result('resources/read', { uri: r.uri });
      expect(contents).toHaveLength(1);
      expect(contents[0].uri).toBe(r.uri);
      expect(contents[0].mimeType).toBe(r.mimeType);
      expect('text' in contents[0] !== 'blob' in contents[0]).toBe(true);
    }
    const templates = await c.listAll('resources/templates/list', 'resourceTemplates');
    expect(templates.map((t) => t.uriTemplate)).toEqual(['ref://notes/{id}']);
    const prompts = await c.listAll('prompts/list', 'prompts');
    expect(prompts.map((p) => p.name)).toEqual(['greet', 'summarize', 'plain', 'describe-logo']);

    const echo = await c.result('tools/call', { name: 'echo', arguments: { message: 'hello' } });
    expect(echo.content).toEqual([{ type: 'text', text: 'hello' }]);
    expect(c.messages.some((m) => m.method === 'notifications/message' && m.params.level === 'info')).toBe(true);
    const image = await c.result('tools/call', { name: 'get-image' });
    expect(image.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(Buffer.from(image.content[0].data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const bad = await c.result('tools/call', { name: 'add', arguments: { a: 'one', b: 2 } });
    expect(bad.isError).toBe(true);
    await c.result('tools/call', { name: 'write-note', arguments: { text: 'remember' } });
    // Tasks (2025-11-25): count-words may run as a task, index-docs only as one, get-image never.
    const { task } = await c.result('tools/call', {
      name: 'count-words',
      arguments: { text: 'a b c' },
      task: { ttl: 1000 },
    });
    expect(task).toMatchObject({ status: 'working', ttl: 1000 });
    expect((await c.result('tasks/result', { taskId: task.taskId })).content[0].text).toBe('3 word(s)');
    expect((await c.result('tasks/get', { taskId: task.taskId })).status).toBe('completed');
    expect(await c.errorCode('tasks/cancel', { taskId: task.taskId })).toBe(-32602);
    expect(await c.errorCode('tools/call', { name: 'index-docs' })).toBe(-32601);
    expect(await c.errorCode('tools/call', { name: 'get-image', task: {} })).toBe(-32601);
    expect((await c.result('resources/read', { uri: 'ref://notes/note-1' })).contents[0].text).toBe('remember');
    expect((await c.result('resources/read', { uri: 'ref://notes/any-id-9' })).contents).toHaveLength(1);
    expect(await c.result('resources/subscribe', { uri: 'ref://docs/readme' })).toEqual({});
    expect(await c.result('resources/unsubscribe', { uri: 'ref://docs/readme' })).toEqual({});

    expect(
      (await c.result('prompts/get', { name: 'greet', arguments: { name: 'Ada' } })).messages[0].content.text,
    ).toContain('Ada');
    const summary = await c.result('prompts/get', { name: 'summarize', arguments: { style: 'short' } });
    expect(summary.messages[1].content.resource).toMatchObject({ uri: 'ref://docs/readme', mimeType: 'text/markdown' });
    expect((await c.result('prompts/get', { name: 'plain' })).messages).toHaveLength(1);

    const names = await c.result('completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'name', value: 'al' },
    });
    expect(names.completion.values).toEqual(['Alan', 'Alice']);
    const ids = await c.result('completion/complete', {
      ref: { type: 'ref/resource', uri: 'ref://notes/{id}' },
      argument: { name: 'id', value: 'note' },
    });
    expect(ids.completion.values).toEqual(['note-1']);

    for (const level of ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']) {
      expect(await c.result('logging/setLevel', { level })).toEqual({});
    }

    // error codes
    expect(await c.errorCode('conformance/does-not-exist')).toBe(-32601);
    expect(await c.errorCode('tools/call', { name: 5 })).toBe(-32602);
    expect(await c.errorCode('tools/call', { name: 'no-such-tool', arguments: {} })).toBe(-32602);
    expect(await c.errorCode('resources/read', {})).toBe(-32602);
    expect(await c.errorCode('logging/setLevel', { level: 'verbose' })).toBe(-32602);
    expect(await c.errorCode('prompts/get', { name: 'no-such-prompt' })).toBe(-32602);
    expect(await c.errorCode('prompts/get', { name: 'greet' })).toBe(-32602);
    expect(
      await c.errorCode('completion/complete', {
        ref: { type: 'ref/prompt', name: 'nope' },
        argument: { name: 'x', value: '' },
      }),
    ).toBe(-32602);
    expect(await c.errorCode('completion/complete', { ref: { type: 'ref/prompt', name: 'greet' } })).toBe(-32602);
    for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']) {
      expect(await c.errorCode(method, { cursor: '!conformance-invalid-cursor' })).toBe(-32602);
    }
    const missing = await c.request('resources/read', { uri: 'conformance-test://does-not-exist' });
    expect(missing.error).toMatchObject({ code: -32002, data: { uri: 'conformance-test://does-not-exist' } });

    // malformed and invalid requests, batches
    const before = c.messages.length;
    c.raw('{"jsonrpc":"2.0","id":1,\n');
    c.raw('\n');
    c.raw('{"jsonrpc":"2.0","id":7}\n');
    c.raw('{"jsonrpc":"1.0","id":8,"method":"ping"}\n');
    c.raw('{"jsonrpc":"2.0","id":9,"method":42}\n');
    c.raw('[{"jsonrpc":"2.0","id":10,"method":"ping"}]\n');
    await c.waitFor((m) => m.error?.message?.includes('batch'));
    expect(c.messages.slice(before).map((m) => [m.id, m.error?.code])).toEqual([
      [null, -32700],
      [7, -32600],
      [8, -32600],
      [9, -32600],
      [null, -32600],
    ]);

    // notifications are never answered
    const count = c.messages.length;
    c.notify('notifications/initialized');
    c.notify('notifications/cancelled', { requestId: 'unknown' });
    c.notify('notifications/x-conformance-unknown', { junk: [1, 2, 3] });
    c.notify('notifications/roots/list_changed', 'not-an-object');
    await c.request('ping', undefined, 'last');
    expect(c.messages.slice(count).map((m) => m.id)).toEqual(['last']);
    expect(c.lines.length).toBe(c.messages.length); // stdout carries only JSON

    const closedAt = Date.now();
    c.closeStdin();
    expect((await c.exited).code).toBe(0);
    expect(Date.now() - closedAt).toBeLessThan(1000);
  });

  it('answers each element of a batch for 2025-03-26', async () => {
    const c = start();
    await c.initialize('2025-03-26');
    c.raw(
      '[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":"b","method":"nope"}]\n',
    );
    const batch = await c.waitFor((m) => Array.isArray(m));
    expect(batch.map((r: Json) => [r.id, r.error?.code])).toEqual([
      ['a', undefined],
      ['b', -32601],
    ]);
  });
});

describe('faulty fixture', () => {
  it('banner: writes a non-JSON line to stdout first', async () => {
    const c = start(FAULTY, { MCP_FAULTS: 'banner' });
    await c.initialize();
    expect(c.lines[0]).toBe('Reference server starting...');
  });

  it('string-ids: answers numeric ids as strings', async () => {
    const c = start(FAULTY, { MCP_FAULTS: 'string-ids' });
    c.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect((await c.waitFor((m) => m.id === '1')).result).toEqual({});
  });

  it('echo-version: echoes an unsupported version', async () => {
    const c = start(FAULTY, { MCP_FAULTS: 'echo-version' });
    expect((await c.initialize('1999-01-01')).protocolVersion).toBe('1999-01-01');
  });

  it('several faults combine', async () => {
    const c = start(FAULTY, { MCP_FAULTS: 'no-jsonrpc,method-not-found-code' });
    const response = await c.request('nope');
    expect(response.jsonrpc).toBeUndefined();
    expect(response.error.code).toBe(-32603);
  });

  it('unknown fault names exit with code 2', async () => {
    const c = start(FAULTY, { MCP_FAULTS: 'banner,no-such-fault' });
    expect((await c.exited).code).toBe(2);
    expect(c.stderr).toContain('no-such-fault');
  });

  it('ignore-sigterm: survives stdin close and SIGTERM, needs SIGKILL', async () => {
    const c = start(FAULTY, { MCP_FAULTS: 'ignore-sigterm' });
    await c.request('ping');
    c.closeStdin();
    await sleep(300);
    expect(c.proc.exitCode).toBeNull();
    c.proc.kill('SIGTERM');
    await sleep(300);
    expect(c.proc.exitCode).toBeNull();
    c.proc.kill('SIGKILL');
    expect((await c.exited).signal).toBe('SIGKILL');
  });

  it('grandchild: leaves a process behind after the server exits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-grandchild-'));
    const pidFile = join(dir, 'pid');
    const c = start(FAULTY, { MCP_FAULTS: 'grandchild', GRANDCHILD_PID_FILE: pidFile });
    await c.request('ping');
    for (let i = 0; i < 40 && !(existsSync(pidFile) && readFileSync(pidFile, 'utf8')); i++) await sleep(50);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    try {
      c.closeStdin();
      expect((await c.exited).code).toBe(0);
      expect(alive(pid)).toBe(true);
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
