// Hand-made messages for the schema differential test: each is labelled with the definition it is
// checked against and whether it is valid. Unless `only` says otherwise, a sample applies to every revision
// of the initialize wire whose schema has the definition (2026-07-28 samples say `only`); `validIn` /
// `invalidIn` flip the verdict for some revisions.
import type { Revision } from '../src/schema/validators.js';

export interface Sample {
  def: string;
  value: unknown;
  note: string;
  valid: boolean;
  only?: Revision[];
  /** Revisions where the verdict is the opposite of `valid`. */
  except?: Revision[];
}

const R03: Revision = '2025-03-26';
const R06: Revision = '2025-06-18';
const R11: Revision = '2025-11-25';
const R07: Revision = '2026-07-28';

type Opts = { only?: Revision[]; validIn?: Revision[]; invalidIn?: Revision[] };
const samples: Sample[] = [];
const ok = (def: string, value: unknown, note = 'valid', o: Opts = {}) =>
  samples.push({ def, value, note, valid: true, only: o.only, except: o.invalidIn });
const bad = (def: string, value: unknown, note: string, o: Opts = {}) =>
  samples.push({ def, value, note, valid: false, only: o.only, except: o.validIn });

// ---- building blocks
const B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const text = { type: 'text', text: 'Hello' };
const image = { type: 'image', data: B64, mimeType: 'image/png' };
const audio = { type: 'audio', data: 'UklGRiQAAABXQVZFZm10IA==', mimeType: 'audio/wav' };
const textContents = { uri: 'file:///notes/a.txt', mimeType: 'text/plain', text: 'a' };
const blobContents = { uri: 'file:///bin/a.bin', mimeType: 'application/octet-stream', blob: 'AAECAw==' };
const embedded = { type: 'resource', resource: textContents };
const link = { type: 'resource_link', uri: 'file:///notes/a.txt', name: 'a.txt' };
const resource = { uri: 'file:///notes/a.txt', name: 'a.txt', description: 'A note', mimeType: 'text/plain', size: 12 };
const template = { uriTemplate: 'file:///notes/{name}', name: 'note', mimeType: 'text/plain' };
const inputSchema = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] };
const tool = { name: 'echo', description: 'Echoes its input', inputSchema };
const prompt = {
  name: 'greet',
  description: 'Says hello',
  arguments: [{ name: 'who', description: 'Whom to greet', required: true }],
};
const task = {
  taskId: 't-1',
  status: 'working',
  createdAt: '2025-11-25T10:00:00Z',
  lastUpdatedAt: '2025-11-25T10:00:00Z',
  ttl: 60000,
  pollInterval: 1000,
};
const icon = { src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' };
const impl = { name: 'example-server', version: '1.0.0' };
const urlParams = { mode: 'url', message: 'Sign in', elicitationId: 'e-1', url: 'https://example.com/auth?x=1' };
const formSchema = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name' }, age: { type: 'integer', minimum: 0 } },
  required: ['name'],
};
const formParams = { message: 'Who are you?', requestedSchema: formSchema };
const samplingParams = { messages: [{ role: 'user', content: text }], maxTokens: 100 };
const notif = (method: string, params?: unknown) => ({
  jsonrpc: '2.0',
  method,
  ...(params === undefined ? {} : { params }),
});
const req = (id: unknown, method: string, params?: unknown) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});
const res = (result: unknown, id: unknown = 1) => ({ jsonrpc: '2.0', id, result });
const err = (code: unknown, message: unknown, id?: unknown) => ({
  jsonrpc: '2.0',
  ...(id === undefined ? {} : { id }),
  error: { code, message },
});

// ---- primitives
for (const v of ['abc', 0, -5, 9007199254740991]) ok('RequestId', v, `id ${JSON.stringify(v)}`);
bad('RequestId', null, 'null id');
bad('RequestId', 1.5, 'fractional id');
bad('RequestId', true, 'boolean id');
ok('ProgressToken', 'p-1', 'string token');
ok('ProgressToken', 42, 'integer token');
bad('ProgressToken', 1.5, 'fractional token');
bad('ProgressToken', null, 'null token');
ok('Cursor', 'page-2');
bad('Cursor', 5, 'number cursor');
ok('Role', 'user');
ok('Role', 'assistant');
bad('Role', 'bot', 'role "bot"');
bad('Role', 'system', 'role "system"');
ok('LoggingLevel', 'debug');
ok('LoggingLevel', 'emergency');
bad('LoggingLevel', 'verbose', 'level "verbose"');
bad('LoggingLevel', 'INFO', 'level in capitals');

// ---- JSON-RPC envelopes
ok('JSONRPCRequest', req(1, 'ping'));
ok('JSONRPCRequest', req('s-1', 'sampling/createMessage', samplingParams), 'string id with params');
bad('JSONRPCRequest', req(null, 'ping'), 'id null');
bad('JSONRPCRequest', { jsonrpc: '2.0', method: 'ping' }, 'no id');
bad('JSONRPCRequest', req(1.5, 'ping'), 'fractional id');
bad('JSONRPCRequest', { ...req(1, 'ping'), jsonrpc: '1.0' }, 'jsonrpc 1.0');
bad('JSONRPCRequest', req(1, 42 as unknown as string), 'method 42');
bad('JSONRPCRequest', req(1, 'ping', [1]), 'params array');
bad(
  'JSONRPCRequest',
  req(1, 'ping', { _meta: { progressToken: 1.5 } }),
  'progressToken 1.5 (typed in 03/06 envelopes only)',
  { validIn: [R11] },
);

ok('JSONRPCNotification', notif('notifications/progress', { progressToken: 1, progress: 1 }));
ok('JSONRPCNotification', notif('notifications/tools/list_changed'), 'no params');
bad('JSONRPCNotification', { method: 'notifications/x' }, 'no jsonrpc');
bad('JSONRPCNotification', { jsonrpc: '2.0' }, 'no method');
bad('JSONRPCNotification', notif('notifications/x', 'text'), 'params string');
bad('JSONRPCNotification', notif('notifications/x', { _meta: 5 }), '_meta 5 (typed in 03/06 envelopes only)', {
  validIn: [R11],
});

ok('JSONRPCResponse', res({}));
ok('JSONRPCResponse', res({ tools: [] }, 'a'), 'string id');
ok('JSONRPCResponse', err(-32601, 'Method not found', 1), 'an error is a JSONRPCResponse from 11 on', {
  invalidIn: [R03, R06],
});
bad('JSONRPCResponse', res([]), 'result array');
bad('JSONRPCResponse', res(null), 'result null');
bad('JSONRPCResponse', { jsonrpc: '2.0', result: {} }, 'no id');

ok('JSONRPCResultResponse', res({}));
bad('JSONRPCResultResponse', res('ok'), 'result string');
bad('JSONRPCResultResponse', { jsonrpc: '2.0', result: {} }, 'no id');

ok('Error', { code: -32601, message: 'Method not found' });
ok('Error', { code: -32002, message: 'Resource not found', data: { uri: 'file:///x' } }, 'with data');
bad('Error', { code: '-32601', message: 'Method not found' }, 'string code');
bad('Error', { code: -32601.5, message: 'x' }, 'fractional code');
bad('Error', { code: -32601 }, 'no message');

ok('JSONRPCError', err(-32601, 'Method not found', 1));
ok(
  'JSONRPCError',
  { ...err(-32602, 'Invalid params', 's'), error: { code: -32602, message: 'Invalid params', data: 'detail' } },
  'with data',
);
bad('JSONRPCError', err(-32700, 'Parse error'), 'error without id (required in 03/06)');
bad('JSONRPCError', err(-32700, 'Parse error', null), 'id null');
bad('JSONRPCError', err('-32601', 'Method not found', 1), 'string error code');
bad('JSONRPCError', { jsonrpc: '2.0', id: 1, error: { code: -32601 } }, 'no message');

ok('JSONRPCErrorResponse', err(-32601, 'Method not found', 1));
ok('JSONRPCErrorResponse', err(-32700, 'Parse error'), 'error without id (allowed from 11 on)');
bad('JSONRPCErrorResponse', err(-32700, 'Parse error', null), 'id null');
bad('JSONRPCErrorResponse', err('-32601', 'Method not found', 1), 'string error code');
bad('JSONRPCErrorResponse', { jsonrpc: '2.0', id: 1 }, 'no error');

const urlError = {
  jsonrpc: '2.0',
  id: 3,
  error: { code: -32042, message: 'Authorization needed', data: { elicitations: [urlParams] } },
};
ok('URLElicitationRequiredError', urlError);
bad('URLElicitationRequiredError', { ...urlError, error: { ...urlError.error, code: -32000 } }, 'other code');
bad('URLElicitationRequiredError', { ...urlError, error: { code: -32042, message: 'x' } }, 'no data');
bad(
  'URLElicitationRequiredError',
  { ...urlError, error: { ...urlError.error, data: { elicitations: [{ ...urlParams, elicitationId: undefined }] } } },
  'elicitation without id',
);

ok('JSONRPCMessage', req(1, 'roots/list'), 'request');
ok('JSONRPCMessage', notif('notifications/message', { level: 'info', data: 'x' }), 'notification');
ok('JSONRPCMessage', res({}), 'result');
ok('JSONRPCMessage', err(-32601, 'Method not found', 1), 'error');
ok('JSONRPCMessage', err(-32700, 'Parse error'), 'error without id', { invalidIn: [R03, R06] });
ok('JSONRPCMessage', req(null, 'ping'), 'id null passes as a notification: the envelopes are open');
ok('JSONRPCMessage', [req(1, 'ping'), notif('notifications/x')], 'batch (03 only)', { invalidIn: [R06, R11] });
bad('JSONRPCMessage', 'hello', 'a string');
bad('JSONRPCMessage', { jsonrpc: '2.0', id: 1 }, 'neither method, result nor error');
bad('JSONRPCMessage', { jsonrpc: '1.0', id: 1, result: {} }, 'jsonrpc 1.0');

ok('JSONRPCBatchRequest', [req(1, 'ping'), notif('notifications/progress', { progressToken: 1, progress: 1 })]);
bad('JSONRPCBatchRequest', [res({})], 'a response in a request batch');
bad('JSONRPCBatchRequest', req(1, 'ping'), 'not an array');
ok('JSONRPCBatchResponse', [res({}, 1), err(-32601, 'Method not found', 2)]);
bad('JSONRPCBatchResponse', [req(1, 'ping')], 'a request in a response batch');
bad('JSONRPCBatchResponse', [err(-32601, 'Method not found')], 'error without id');

// ---- shared params and results
ok('RequestParams', {});
ok('RequestParams', { _meta: { progressToken: 'p' } }, 'progress token');
bad('RequestParams', { _meta: { progressToken: 1.5 } }, 'fractional progress token');
bad('RequestParams', 'x', 'not an object');
ok('PaginatedRequestParams', { cursor: 'c-2' });
bad('PaginatedRequestParams', { cursor: 5 }, 'number cursor');
ok('NotificationParams', {});
ok('NotificationParams', { _meta: { 'io.example/x': 1 } }, 'with _meta');
bad('NotificationParams', { _meta: [] }, '_meta array');
ok('TaskMetadata', { ttl: 60000 });
ok('TaskMetadata', {}, 'empty');
bad('TaskMetadata', { ttl: 1.5 }, 'fractional ttl');
bad('TaskMetadata', { ttl: '60000' }, 'string ttl');

ok('Result', {});
ok('Result', { _meta: { 'io.example/trace': 'x' }, anything: [1, 2] }, 'extra fields and _meta');
bad('Result', [], 'array');
bad('Result', 'ok', 'string');
bad('Result', { _meta: 'x' }, '_meta string');
ok('EmptyResult', {});
ok('EmptyResult', { _meta: {} }, '_meta only');
bad('EmptyResult', null, 'null');
bad('EmptyResult', { _meta: 5 }, '_meta number');
ok('PaginatedResult', { nextCursor: 'n' });
bad('PaginatedResult', { nextCursor: 3 }, 'number cursor');

// ---- initialization
ok('Icon', icon);
ok('Icon', { src: `data:image/png;base64,${B64}` }, 'data: URI');
bad('Icon', { ...icon, src: 'not a uri' }, 'non-uri icon src');
bad('Icon', { ...icon, theme: 'blue' }, 'theme "blue"');
bad('Icon', { mimeType: 'image/png' }, 'no src');
bad('Icon', { ...icon, sizes: '48x48' }, 'sizes string');

ok('Implementation', impl);
ok(
  'Implementation',
  { ...impl, title: 'Example', description: 'An example', websiteUrl: 'https://example.com', icons: [icon] },
  'every field',
);
bad('Implementation', { name: 'x' }, 'missing serverInfo.version');
bad('Implementation', { name: 5, version: '1' }, 'name number');
bad('Implementation', { ...impl, title: 5 }, 'title number (06+)', { validIn: [R03] });
bad('Implementation', { ...impl, websiteUrl: 'example dot com' }, 'websiteUrl not a URI (11)', { validIn: [R03, R06] });
bad('Implementation', { ...impl, icons: [{ src: 'not a uri' }] }, 'non-uri icon src (11)', { validIn: [R03, R06] });

const caps = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: false },
  prompts: {},
  logging: {},
  completions: {},
  experimental: { 'x-feature': { on: true } },
};
ok('ServerCapabilities', {}, 'empty');
ok('ServerCapabilities', caps, 'every capability');
ok('ServerCapabilities', { ...caps, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, 'with tasks');
bad('ServerCapabilities', { tools: { listChanged: 'yes' } }, 'listChanged string');
bad('ServerCapabilities', { experimental: { x: true } }, 'experimental value not an object');
bad('ServerCapabilities', { logging: true }, 'logging true');
bad('ServerCapabilities', { tasks: { list: true } }, 'tasks.list true (11)', { validIn: [R03, R06] });

const init = { protocolVersion: '2025-11-25', capabilities: caps, serverInfo: impl };
ok('InitializeResult', init);
ok('InitializeResult', { ...init, instructions: 'Use echo to test.', _meta: {} }, 'instructions');
bad('InitializeResult', { ...init, serverInfo: { name: 'x' } }, 'missing serverInfo.version');
bad('InitializeResult', { protocolVersion: '2025-11-25', serverInfo: impl }, 'no capabilities');
bad('InitializeResult', { ...init, protocolVersion: 20251125 }, 'protocolVersion number');
bad('InitializeResult', { ...init, instructions: 5 }, 'instructions number');

// ---- content
ok('Annotations', { audience: ['user', 'assistant'], priority: 0.5 });
ok('Annotations', { priority: 0 }, 'priority 0');
ok('Annotations', { priority: 1, lastModified: '2025-01-12T15:00:58Z' }, 'priority 1 and lastModified');
bad('Annotations', { priority: 1.5 }, 'priority 1.5');
bad('Annotations', { priority: -0.1 }, 'priority -0.1');
bad('Annotations', { audience: ['bot'] }, 'audience "bot"');
bad('Annotations', { audience: 'user' }, 'audience string');
bad('Annotations', { lastModified: 5 }, 'lastModified number (06+)', { validIn: [R03] });

ok('TextContent', text);
ok('TextContent', { ...text, annotations: { audience: ['user'], priority: 1 } }, 'annotated');
bad('TextContent', { type: 'text' }, 'no text');
bad('TextContent', { type: 'text', text: 5 }, 'text number');
bad('TextContent', { ...text, type: 'txt' }, 'type "txt"');
bad('TextContent', { ...text, annotations: { priority: 2 } }, 'priority 2');
bad('TextContent', { ...text, _meta: 'x' }, '_meta string (06+)', { validIn: [R03] });
ok('ImageContent', image);
bad('ImageContent', { ...image, data: 'not base64!!' }, 'bad base64');
bad('ImageContent', { type: 'image', data: B64 }, 'no mimeType');
bad('ImageContent', { ...image, type: 'picture' }, 'type "picture"');
ok('AudioContent', audio);
bad('AudioContent', { ...audio, data: '%%%' }, 'bad base64');
bad('AudioContent', { ...audio, type: 'sound' }, 'type "sound"');

ok('ResourceContents', { uri: 'file:///a' });
bad('ResourceContents', { uri: 'not a uri' }, 'uri without scheme');
bad('ResourceContents', { mimeType: 'text/plain' }, 'no uri');
ok('TextResourceContents', textContents);
ok('TextResourceContents', { uri: 'demo://resource/1', text: '' }, 'custom scheme, empty text');
bad('TextResourceContents', { uri: 'file:///a' }, 'no text');
bad('TextResourceContents', { ...textContents, text: 5 }, 'text number');
bad('TextResourceContents', { ...textContents, uri: 'a.txt' }, 'relative uri');
ok('BlobResourceContents', blobContents);
bad('BlobResourceContents', { ...blobContents, blob: 'not base64 ✗' }, 'bad base64');
bad('BlobResourceContents', { uri: 'file:///a' }, 'no blob');
ok('EmbeddedResource', embedded, 'text');
ok('EmbeddedResource', { type: 'resource', resource: blobContents }, 'blob');
bad('EmbeddedResource', { type: 'resource', resource: { uri: 'file:///a' } }, 'neither text nor blob');
bad('EmbeddedResource', { type: 'resource', resource: { ...blobContents, blob: '@@' } }, 'bad base64 blob');
bad('EmbeddedResource', { ...embedded, type: 'embedded' }, 'type "embedded"');

ok('Resource', resource);
ok(
  'Resource',
  { ...resource, title: 'A', annotations: { audience: ['assistant'] }, icons: [icon], _meta: {} },
  'every field',
);
bad('Resource', { ...resource, size: 1.5 }, 'fractional size');
bad('Resource', { ...resource, size: '12' }, 'size string');
bad('Resource', { ...resource, uri: 'a.txt' }, 'relative uri');
bad('Resource', { uri: 'file:///a' }, 'no name');
bad('Resource', { ...resource, title: 5 }, 'title number (06+)', { validIn: [R03] });
bad('Resource', { ...resource, icons: [{ src: 'x y' }] }, 'non-uri icon src (11)', { validIn: [R03, R06] });
ok('ResourceLink', link);
ok('ResourceLink', { ...link, title: 'A', size: 3, annotations: { priority: 0.2 } }, 'more fields');
bad('ResourceLink', { type: 'resource_link', uri: 'file:///a' }, 'no name');
bad('ResourceLink', { ...link, uri: 'nope' }, 'uri without scheme');
bad('ResourceLink', { ...link, type: 'link' }, 'type "link"');
for (const [n, block] of Object.entries({ text, image, audio, link, embedded })) ok('ContentBlock', block, n);
bad('ContentBlock', { type: 'video', data: B64, mimeType: 'video/mp4' }, 'unknown content type');
bad('ContentBlock', { ...image, data: 'no!' }, 'bad base64 image');

ok('ResourceTemplate', template);
ok('ResourceTemplate', { ...template, uriTemplate: 'demo://items/{id}{?q,page}', title: 'Item' }, 'query expansion');
bad('ResourceTemplate', { ...template, uriTemplate: 'file:///{unclosed' }, 'broken uri-template');
bad('ResourceTemplate', { uriTemplate: 'file:///{x}' }, 'no name');
bad('ResourceTemplate', { ...template, title: 5 }, 'title number (06+)', { validIn: [R03] });
ok('ListResourcesResult', { resources: [resource] });
ok('ListResourcesResult', { resources: [], nextCursor: 'n' }, 'empty page with cursor');
bad('ListResourcesResult', {}, 'no resources');
bad('ListResourcesResult', { resources: [{ name: 'x' }] }, 'resource without uri');
bad('ListResourcesResult', { resources: [], nextCursor: 5 }, 'number cursor');
ok('ListResourceTemplatesResult', { resourceTemplates: [template] });
bad('ListResourceTemplatesResult', { templates: [template] }, 'wrong field name');
bad('ListResourceTemplatesResult', { resourceTemplates: [{ name: 'x' }] }, 'template without uriTemplate');
ok('ReadResourceResult', { contents: [textContents, blobContents] });
bad('ReadResourceResult', { contents: [{ uri: 'file:///a' }] }, 'resource contents with neither text nor blob');
bad('ReadResourceResult', { contents: [{ ...blobContents, blob: '***' }] }, 'bad base64 blob');
bad('ReadResourceResult', {}, 'no contents');

// ---- tools
ok('ToolAnnotations', {
  title: 'Echo',
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});
ok('ToolAnnotations', {}, 'empty');
bad('ToolAnnotations', { readOnlyHint: 'true' }, 'hint string');
bad('ToolAnnotations', { title: 5 }, 'title number');
ok('ToolExecution', { taskSupport: 'optional' });
bad('ToolExecution', { taskSupport: 'sometimes' }, 'taskSupport "sometimes"');

ok('Tool', tool);
ok('Tool', { name: 'now', inputSchema: { type: 'object', additionalProperties: false } }, 'no parameters');
ok(
  'Tool',
  {
    ...tool,
    title: 'Echo',
    annotations: { readOnlyHint: true },
    outputSchema: { type: 'object', properties: { echoed: { type: 'string' } } },
  },
  'output schema',
);
ok(
  'Tool',
  {
    ...tool,
    inputSchema: { ...inputSchema, $schema: 'http://json-schema.org/draft-07/schema#' },
    execution: { taskSupport: 'forbidden' },
    icons: [icon],
  },
  '11 fields',
);
bad('Tool', { ...tool, inputSchema: null }, 'inputSchema null');
bad('Tool', { ...tool, inputSchema: { type: 'string' } }, 'inputSchema.type "string"');
bad('Tool', { name: 'echo' }, 'no inputSchema');
bad('Tool', { ...tool, inputSchema: { properties: {} } }, 'inputSchema without type');
bad('Tool', { ...tool, name: 5 }, 'name number');
bad('Tool', { ...tool, inputSchema: { type: 'object', properties: { a: 'string' } } }, 'property schema not an object');
bad('Tool', { ...tool, inputSchema: { ...inputSchema, required: 'message' } }, 'required string');
bad('Tool', { ...tool, annotations: { readOnlyHint: 'yes' } }, 'annotation string');
bad('Tool', { ...tool, outputSchema: { type: 'array' } }, 'outputSchema.type "array" (06+)', { validIn: [R03] });
bad('Tool', { ...tool, execution: { taskSupport: 'maybe' } }, 'taskSupport "maybe" (11)', { validIn: [R03, R06] });
bad('Tool', { ...tool, inputSchema: { ...inputSchema, $schema: 5 } }, '$schema number (11)', { validIn: [R03, R06] });
ok('ListToolsResult', { tools: [tool], nextCursor: 'n' });
ok('ListToolsResult', { tools: [] }, 'no tools');
bad('ListToolsResult', { tools: [{ name: 'x' }] }, 'tool without inputSchema');
bad('ListToolsResult', {}, 'no tools field');
bad('ListToolsResult', { tools: {} }, 'tools object');

ok('CallToolResult', { content: [text] });
ok('CallToolResult', { content: [], isError: true }, 'empty error result');
ok('CallToolResult', { content: [image, audio, embedded] }, 'image, audio, embedded resource');
ok('CallToolResult', { content: [text, link] }, 'resource_link (06+)', { invalidIn: [R03] });
ok('CallToolResult', { content: [text], structuredContent: { a: 1 } }, 'structuredContent');
bad('CallToolResult', { content: [text], structuredContent: [1, 2] }, 'structuredContent array (06+)', {
  validIn: [R03],
});
bad('CallToolResult', { isError: false }, 'no content');
bad('CallToolResult', { content: [text], isError: 'yes' }, 'isError string');
bad('CallToolResult', { content: [{ type: 'video', data: B64 }] }, 'unknown content type');
bad('CallToolResult', { content: 'done' }, 'content string');

// ---- prompts
ok('PromptArgument', { name: 'who' });
ok('PromptArgument', { name: 'who', title: 'Who', description: 'x', required: false }, 'every field');
bad('PromptArgument', { name: 'who', required: 'yes' }, 'required string');
bad('PromptArgument', { description: 'x' }, 'no name');
ok('Prompt', prompt);
ok('Prompt', { name: 'p', title: 'P', icons: [icon], _meta: {} }, 'newer fields');
bad('Prompt', { ...prompt, arguments: [{}] }, 'argument without name');
bad('Prompt', { description: 'x' }, 'no name');
bad('Prompt', { ...prompt, icons: [{ src: '::' }] }, 'non-uri icon src (11)', { validIn: [R03, R06] });
ok('PromptMessage', { role: 'user', content: text });
ok('PromptMessage', { role: 'assistant', content: image }, 'image');
ok('PromptMessage', { role: 'user', content: embedded }, 'embedded resource');
ok('PromptMessage', { role: 'user', content: link }, 'resource_link (06+)', { invalidIn: [R03] });
bad('PromptMessage', { role: 'system', content: text }, 'role "system"');
bad('PromptMessage', { role: 'user', content: [text] }, 'content array');
bad(
  'PromptMessage',
  { role: 'user', content: { type: 'tool_use', id: 'c', name: 'x', input: {} } },
  'tool_use content',
);
ok('ListPromptsResult', { prompts: [prompt] });
bad('ListPromptsResult', {}, 'no prompts');
bad('ListPromptsResult', { prompts: [{ description: 'x' }] }, 'prompt without name');
ok('GetPromptResult', { description: 'Greeting', messages: [{ role: 'user', content: text }] });
bad('GetPromptResult', { description: 'x' }, 'no messages');
bad('GetPromptResult', { messages: [{ role: 'user' }] }, 'message without content');
bad('GetPromptResult', { messages: [], description: 5 }, 'description number');

// ---- completion
ok('CompleteResult', { completion: { values: ['a', 'b'], total: 2, hasMore: false } });
ok(
  'CompleteResult',
  { completion: { values: Array.from({ length: 101 }, (_, i) => `v${i}`) } },
  '101 values: the 100 limit is a custom check',
);
bad('CompleteResult', { completion: {} }, 'no values');
bad('CompleteResult', { completion: { values: ['a'], total: 1.5 } }, 'fractional total');
bad('CompleteResult', { completion: { values: [1] } }, 'number value');
bad('CompleteResult', { completion: { values: [], hasMore: 'no' } }, 'hasMore string');

// ---- tasks
ok('TaskStatus', 'working');
ok('TaskStatus', 'input_required');
bad('TaskStatus', 'done', 'status "done"');
ok('Task', task);
ok('Task', { ...task, ttl: null, status: 'completed', statusMessage: 'ok' }, 'ttl null');
const { ttl: _ttl, ...taskWithoutTtl } = task;
const { lastUpdatedAt: _updated, ...taskWithoutUpdate } = task;
bad('Task', taskWithoutTtl, 'no ttl');
bad('Task', { ...task, ttl: 1.5 }, 'fractional ttl');
bad('Task', { ...task, status: 'running' }, 'status "running"');
bad('Task', { ...task, createdAt: undefined }, 'no createdAt');
bad('Task', { ...task, pollInterval: '1000' }, 'pollInterval string');
ok('CreateTaskResult', { task });
bad('CreateTaskResult', { task: { ...task, taskId: undefined } }, 'task without taskId');
bad('CreateTaskResult', {}, 'no task');
ok('GetTaskResult', task);
ok('GetTaskResult', { ...task, _meta: {} }, 'with _meta');
bad('GetTaskResult', {}, 'empty');
bad('GetTaskResult', { ...task, status: 'done' }, 'status "done"');
ok('CancelTaskResult', { ...task, status: 'cancelled' });
bad('CancelTaskResult', { ...taskWithoutUpdate, status: 'cancelled' }, 'no lastUpdatedAt');
bad('CancelTaskResult', { ...task, _meta: 5 }, '_meta number');
ok('GetTaskPayloadResult', { content: [text] }, 'a CallToolResult');
ok('GetTaskPayloadResult', {}, 'empty');
bad('GetTaskPayloadResult', [], 'array');
bad('GetTaskPayloadResult', { _meta: 'x' }, '_meta string');
ok('ListTasksResult', { tasks: [task], nextCursor: 'n' });
bad('ListTasksResult', {}, 'no tasks');
bad('ListTasksResult', { tasks: [{ taskId: 't' }] }, 'incomplete task');

ok('ServerResult', {}, 'empty result');
ok('ServerResult', init, 'initialize result');
bad('ServerResult', [], 'array');
bad('ServerResult', 'x', 'string');
bad('ServerResult', { _meta: 5 }, '_meta number');

// ---- notifications
const progress = { progressToken: 'p-1', progress: 0.5, total: 1, message: 'half way' };
ok('ProgressNotification', notif('notifications/progress', progress));
ok(
  'ProgressNotification',
  notif('notifications/progress', { progressToken: 7, progress: 3 }),
  'integer token, no total',
);
ok(
  'ProgressNotification',
  { method: 'notifications/progress', params: progress },
  'without jsonrpc (03/06 define {method, params})',
  { invalidIn: [R11] },
);
bad('ProgressNotification', notif('notifications/progress', { ...progress, progress: '50%' }), 'progress string');
bad('ProgressNotification', notif('notifications/progress', { progress: 1 }), 'no progressToken');
bad('ProgressNotification', notif('notifications/progress', { ...progress, progressToken: 1.5 }), 'fractional token');
bad('ProgressNotification', notif('notifications/progres', progress), 'misspelt method');
bad('ProgressNotification', notif('notifications/progress'), 'no params');
ok('ProgressNotificationParams', progress);
bad('ProgressNotificationParams', { progressToken: 'p' }, 'no progress');
bad('ProgressNotificationParams', { ...progress, message: 5 }, 'message number');

const log = { level: 'info', logger: 'db', data: { query: 'x', ms: 3 } };
ok('LoggingMessageNotification', notif('notifications/message', log));
ok('LoggingMessageNotification', notif('notifications/message', { level: 'error', data: 'boom' }), 'string data');
bad('LoggingMessageNotification', notif('notifications/message', { ...log, level: 'verbose' }), 'level "verbose"');
bad('LoggingMessageNotification', notif('notifications/message', { level: 'info' }), 'no data');
bad('LoggingMessageNotification', notif('notifications/message', { ...log, logger: 5 }), 'logger number');
ok('LoggingMessageNotificationParams', log);
ok('LoggingMessageNotificationParams', { level: 'debug', data: null }, 'null data');
bad('LoggingMessageNotificationParams', { data: 'x' }, 'no level');

ok('ResourceUpdatedNotification', notif('notifications/resources/updated', { uri: 'file:///notes/a.txt' }));
bad('ResourceUpdatedNotification', notif('notifications/resources/updated', { uri: 'nope' }), 'uri without scheme');
bad('ResourceUpdatedNotification', notif('notifications/resources/updated'), 'no params');
ok('ResourceUpdatedNotificationParams', { uri: 'demo://x/1', _meta: {} });
bad('ResourceUpdatedNotificationParams', {}, 'no uri');

for (const [def, method] of [
  ['ResourceListChangedNotification', 'notifications/resources/list_changed'],
  ['ToolListChangedNotification', 'notifications/tools/list_changed'],
  ['PromptListChangedNotification', 'notifications/prompts/list_changed'],
]) {
  ok(def, notif(method));
  ok(def, notif(method, { _meta: {} }), 'with params');
  bad(def, notif('notifications/other/list_changed'), 'other method');
  bad(def, notif(method, 'x'), 'params string');
  bad(def, notif(method, { _meta: 5 }), '_meta number');
}

ok('CancelledNotification', notif('notifications/cancelled', { requestId: 5, reason: 'timeout' }));
ok(
  'CancelledNotification',
  notif('notifications/cancelled', { reason: 'task' }),
  'no requestId (optional from 11 on)',
  { invalidIn: [R03, R06] },
);
bad('CancelledNotification', notif('notifications/cancelled', { requestId: null }), 'requestId null');
bad('CancelledNotification', notif('notifications/cancelled', { requestId: 1, reason: 5 }), 'reason number');
ok('CancelledNotificationParams', { requestId: 'r-1' });
bad('CancelledNotificationParams', { requestId: 1.5 }, 'fractional requestId');

ok('TaskStatusNotification', notif('notifications/tasks/status', task));
bad('TaskStatusNotification', notif('notifications/tasks/status', taskWithoutTtl), 'task without ttl');
bad('TaskStatusNotification', notif('notifications/tasks/status', { ...task, status: 'done' }), 'status "done"');
ok('TaskStatusNotificationParams', { ...task, _meta: {} });
bad('TaskStatusNotificationParams', {}, 'empty');
bad('TaskStatusNotificationParams', { ...task, _meta: 5 }, '_meta number');
ok('ElicitationCompleteNotification', notif('notifications/elicitation/complete', { elicitationId: 'e-1' }));
bad('ElicitationCompleteNotification', notif('notifications/elicitation/complete', {}), 'no elicitationId');
bad(
  'ElicitationCompleteNotification',
  notif('notifications/elicitation/complete', { elicitationId: 5 }),
  'elicitationId number',
);

ok('ServerNotification', notif('notifications/progress', progress), 'progress');
ok('ServerNotification', notif('notifications/tools/list_changed'), 'list_changed');
ok('ServerNotification', notif('notifications/tasks/status', task), 'tasks/status (11)', { invalidIn: [R03, R06] });
bad('ServerNotification', notif('notifications/initialized'), 'a client notification');
bad('ServerNotification', notif('notifications/unknown', {}), 'unknown method');
bad('ServerNotification', notif('notifications/message', { level: 'loud', data: 1 }), 'bad log level');

// ---- server → client requests
ok('PingRequest', req(7, 'ping'));
ok('PingRequest', req('p', 'ping', { _meta: { progressToken: 'x' } }), 'with params');
ok('PingRequest', { method: 'ping' }, 'without jsonrpc and id (03/06 define {method, params})', { invalidIn: [R11] });
bad('PingRequest', req(null, 'ping'), 'id null (03/06 PingRequest has no id)', { validIn: [R03, R06] });
bad('PingRequest', req(7, 'pong'), 'method "pong"');
bad('PingRequest', req(7, 'ping', 'x'), 'params string');
ok('ListRootsRequest', req(8, 'roots/list'));
bad('ListRootsRequest', req(8, 'roots/get'), 'other method');
bad('ListRootsRequest', req(8, 'roots/list', { _meta: { progressToken: 1.5 } }), 'fractional progress token');

ok('ModelHint', { name: 'claude-3-5-sonnet' });
ok('ModelHint', {}, 'empty');
bad('ModelHint', { name: 5 }, 'name number');
ok('ModelPreferences', { hints: [{ name: 'sonnet' }], costPriority: 0.3, speedPriority: 1, intelligencePriority: 0 });
bad('ModelPreferences', { costPriority: 2 }, 'priority 2');
bad('ModelPreferences', { hints: { name: 'x' } }, 'hints object');

ok('SamplingMessage', { role: 'user', content: text });
ok('SamplingMessage', { role: 'assistant', content: audio }, 'audio');
ok('SamplingMessage', { role: 'user', content: [text, image] }, 'content array (11)', { invalidIn: [R03, R06] });
ok(
  'SamplingMessage',
  { role: 'assistant', content: { type: 'tool_use', id: 'c1', name: 'echo', input: {} } },
  'tool_use (11)',
  { invalidIn: [R03, R06] },
);
bad('SamplingMessage', { role: 'user', content: embedded }, 'embedded resource');
bad('SamplingMessage', { role: 'system', content: text }, 'role "system"');

const tools11 = { tools: [tool], toolChoice: { mode: 'auto' } };
ok('CreateMessageRequest', req(1, 'sampling/createMessage', samplingParams));
ok(
  'CreateMessageRequest',
  req(2, 'sampling/createMessage', {
    ...samplingParams,
    modelPreferences: { hints: [{ name: 'x' }] },
    systemPrompt: 'Be brief',
    includeContext: 'thisServer',
    temperature: 0.2,
    stopSequences: ['\n'],
    metadata: { a: 1 },
  }),
  'every field',
);
ok('CreateMessageRequest', req(3, 'sampling/createMessage', { ...samplingParams, ...tools11 }), 'with tools');
bad('CreateMessageRequest', req(1, 'sampling/createMessage', { messages: [] }), 'no maxTokens');
bad(
  'CreateMessageRequest',
  req(1, 'sampling/createMessage', { ...samplingParams, maxTokens: 10.5 }),
  'fractional maxTokens',
);
bad(
  'CreateMessageRequest',
  req(1, 'sampling/createMessage', { ...samplingParams, includeContext: 'everything' }),
  'includeContext "everything"',
);
bad('CreateMessageRequest', req(1, 'sampling/createMessage', { maxTokens: 5 }), 'no messages');
bad(
  'CreateMessageRequest',
  req(1, 'sampling/createMessage', { ...samplingParams, temperature: 'hot' }),
  'temperature string',
);
bad(
  'CreateMessageRequest',
  req(1, 'sampling/createMessage', { ...samplingParams, toolChoice: { mode: 'always' } }),
  'toolChoice "always" (11)',
  { validIn: [R03, R06] },
);
ok('CreateMessageRequestParams', { ...samplingParams, ...tools11, task: { ttl: 1000 } });
bad('CreateMessageRequestParams', { messages: [] }, 'no maxTokens');
bad('CreateMessageRequestParams', { ...samplingParams, tools: [{ name: 'x' }] }, 'tool without inputSchema');

const toolUse = { type: 'tool_use', id: 'call-1', name: 'echo', input: { message: 'hi' } };
const toolResult = { type: 'tool_result', toolUseId: 'call-1', content: [text] };
ok('SamplingMessageContentBlock', text, 'text');
ok('SamplingMessageContentBlock', toolUse, 'tool_use');
ok('SamplingMessageContentBlock', toolResult, 'tool_result');
bad('SamplingMessageContentBlock', embedded, 'embedded resource');
bad('SamplingMessageContentBlock', link, 'resource_link');
ok('ToolUseContent', toolUse);
bad('ToolUseContent', { ...toolUse, input: undefined }, 'no input');
bad('ToolUseContent', { ...toolUse, input: 'x' }, 'input string');
bad('ToolUseContent', { ...toolUse, id: undefined }, 'no id');
ok('ToolResultContent', toolResult);
ok('ToolResultContent', { ...toolResult, structuredContent: { a: 1 }, isError: false }, 'structured');
bad('ToolResultContent', { type: 'tool_result', toolUseId: 'call-1' }, 'no content');
bad('ToolResultContent', { ...toolResult, structuredContent: [1] }, 'structuredContent array');
bad('ToolResultContent', { type: 'tool_result', content: [] }, 'no toolUseId');
ok('ToolChoice', { mode: 'required' });
ok('ToolChoice', {}, 'empty');
bad('ToolChoice', { mode: 'always' }, 'mode "always"');

ok('StringSchema', { type: 'string', title: 'Email', format: 'email', minLength: 3, maxLength: 100 });
ok('StringSchema', { type: 'string', default: 'x' }, 'default (a field from 11 on; open before)');
bad('StringSchema', { type: 'string', format: 'phone' }, 'format "phone"');
bad('StringSchema', { type: 'string', minLength: 1.5 }, 'fractional minLength');
bad('StringSchema', { type: 'number' }, 'type "number"');
bad('StringSchema', { type: 'string', default: 5 }, 'default number (11)', { validIn: [R06] });
ok('NumberSchema', { type: 'integer', minimum: 0, maximum: 10 });
ok('NumberSchema', { type: 'number', minimum: 0.5, maximum: 9.5 }, 'fractional bounds');
bad('NumberSchema', { type: 'float' }, 'type "float"');
bad('NumberSchema', { type: 'number', minimum: '0' }, 'minimum string');
bad('NumberSchema', { type: 'number', default: 'x' }, 'default string (11)', { validIn: [R06] });
ok('BooleanSchema', { type: 'boolean', default: true, description: 'Agree?' });
bad('BooleanSchema', { type: 'boolean', default: 'yes' }, 'default string');
bad('BooleanSchema', { type: 'bool' }, 'type "bool"');

const untitled = { type: 'string', enum: ['red', 'green'], default: 'red' };
const titled = {
  type: 'string',
  oneOf: [
    { const: 'r', title: 'Red' },
    { const: 'g', title: 'Green' },
  ],
};
const multi = { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1, default: ['a'] };
const titledMulti = { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }] }, maxItems: 1 };
const legacy = { type: 'string', enum: ['a', 'b'], enumNames: ['A', 'B'] };
ok('EnumSchema', legacy, 'enum with enumNames');
ok('EnumSchema', titled, 'titled single select (11)', { invalidIn: [R06] });
ok('EnumSchema', multi, 'multi select (11)', { invalidIn: [R06] });
bad('EnumSchema', { type: 'string' }, 'no enum');
bad('EnumSchema', { type: 'string', enum: [1, 2] }, 'number values');
ok('UntitledSingleSelectEnumSchema', untitled);
bad('UntitledSingleSelectEnumSchema', { type: 'string' }, 'no enum');
bad('UntitledSingleSelectEnumSchema', { ...untitled, default: 5 }, 'default number');
ok('TitledSingleSelectEnumSchema', titled);
bad('TitledSingleSelectEnumSchema', { type: 'string', oneOf: [{ const: 'r' }] }, 'option without title');
ok('UntitledMultiSelectEnumSchema', multi);
bad('UntitledMultiSelectEnumSchema', { type: 'array', items: { type: 'string' } }, 'items without enum');
bad('UntitledMultiSelectEnumSchema', { ...multi, minItems: 1.5 }, 'fractional minItems');
ok('TitledMultiSelectEnumSchema', titledMulti);
bad('TitledMultiSelectEnumSchema', { type: 'array', items: {} }, 'items without anyOf');
ok('LegacyTitledEnumSchema', legacy);
bad('LegacyTitledEnumSchema', { ...legacy, enumNames: 'A' }, 'enumNames string');
ok('SingleSelectEnumSchema', untitled, 'untitled');
ok('SingleSelectEnumSchema', titled, 'titled');
bad('SingleSelectEnumSchema', multi, 'multi select');
ok('MultiSelectEnumSchema', multi, 'untitled');
ok('MultiSelectEnumSchema', titledMulti, 'titled');
bad('MultiSelectEnumSchema', untitled, 'single select');
for (const [n, s] of Object.entries({
  string: { type: 'string' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  enum: legacy,
}))
  ok('PrimitiveSchemaDefinition', s, n);
bad('PrimitiveSchemaDefinition', { type: 'object', properties: {} }, 'nested object');
bad('PrimitiveSchemaDefinition', { type: 'array', items: { type: 'number' } }, 'array of numbers');

ok('ElicitRequest', req(4, 'elicitation/create', formParams));
ok('ElicitRequest', req(5, 'elicitation/create', urlParams), 'url mode (11)', { invalidIn: [R06] });
bad(
  'ElicitRequest',
  req(4, 'elicitation/create', {
    ...formParams,
    requestedSchema: { type: 'object', properties: { address: { type: 'object' } } },
  }),
  'nested object field',
);
bad(
  'ElicitRequest',
  req(4, 'elicitation/create', { ...formParams, requestedSchema: { type: 'array', properties: {} } }),
  'requestedSchema.type "array"',
);
bad('ElicitRequest', req(4, 'elicitation/create', { requestedSchema: formSchema }), 'no message');
ok('ElicitRequestParams', formParams, 'form');
ok('ElicitRequestParams', urlParams, 'url');
bad('ElicitRequestParams', { ...urlParams, url: undefined }, 'url mode without url');
bad('ElicitRequestParams', { ...formParams, mode: 'popup' }, 'mode "popup"');
ok('ElicitRequestFormParams', { ...formParams, mode: 'form' });
bad(
  'ElicitRequestFormParams',
  { message: 'x', requestedSchema: { type: 'object' } },
  'requestedSchema without properties',
);
bad(
  'ElicitRequestFormParams',
  { ...formParams, requestedSchema: { type: 'object', properties: { x: { type: 'object' } } } },
  'object field',
);
ok('ElicitRequestURLParams', urlParams);
bad('ElicitRequestURLParams', { ...urlParams, url: 'not a url' }, 'url not a URI');
bad('ElicitRequestURLParams', { ...urlParams, elicitationId: undefined }, 'no elicitationId');
bad('ElicitRequestURLParams', { ...urlParams, mode: 'form' }, 'mode "form"');

for (const [def, method] of [
  ['GetTaskRequest', 'tasks/get'],
  ['GetTaskPayloadRequest', 'tasks/result'],
  ['CancelTaskRequest', 'tasks/cancel'],
]) {
  ok(def, req(9, method, { taskId: 't-1' }));
  bad(def, req(9, method), 'no params');
  bad(def, req(9, method, { taskId: 5 }), 'taskId number');
}
ok('ListTasksRequest', req(10, 'tasks/list'));
ok('ListTasksRequest', req(10, 'tasks/list', { cursor: 'c' }), 'with cursor');
bad('ListTasksRequest', req(10, 'tasks/list', { cursor: 5 }), 'number cursor');

ok('ServerRequest', req(1, 'ping'), 'ping');
ok('ServerRequest', req(2, 'sampling/createMessage', samplingParams), 'sampling');
ok('ServerRequest', req(3, 'roots/list'), 'roots');
ok('ServerRequest', req(4, 'elicitation/create', formParams), 'elicitation (06+)', { invalidIn: [R03] });
bad('ServerRequest', req(5, 'tools/list'), 'a client request');
bad('ServerRequest', req(6, 'initialize', {}), 'initialize');

// ---- what a client sends on the initialize wire: requests, notifications and the results it answers with
const clientInfo = { name: 'example-client', version: '1.0.0' };
const initParams = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo };
const root = { uri: 'file:///home/user/project', name: 'project' };
const sampled = { role: 'assistant', content: text, model: 'example-model', stopReason: 'endTurn' };
ok('ClientCapabilities', {}, 'none');
ok('ClientCapabilities', { roots: { listChanged: true }, sampling: {}, experimental: { 'x-feature': {} } });
ok('ClientCapabilities', { elicitation: { form: {}, url: {} }, tasks: { list: {}, requests: {} } }, 'later fields');
bad('ClientCapabilities', { roots: { listChanged: 'yes' } }, 'listChanged string');
bad('ClientCapabilities', { experimental: { x: 5 } }, 'experimental value a number');
bad('ClientCapabilities', { sampling: 5 }, 'sampling a number');
bad('ClientCapabilities', { elicitation: 'yes' }, 'elicitation a string (06+)', { validIn: [R03] });
bad('ClientCapabilities', { tasks: { list: 5 } }, 'tasks.list a number (11)', { validIn: [R03, R06] });
bad('ClientCapabilities', { sampling: { tools: 5 } }, 'sampling.tools a number (11)', { validIn: [R03, R06] });

ok('InitializeRequest', req(1, 'initialize', initParams));
ok('InitializeRequest', req('i', 'initialize', { ...initParams, capabilities: { roots: {} } }), 'with roots');
bad('InitializeRequest', req(1, 'initialize', { ...initParams, clientInfo: undefined }), 'no clientInfo');
bad('InitializeRequest', req(1, 'initialize', { ...initParams, protocolVersion: 20251125 }), 'version a number');
bad(
  'InitializeRequest',
  req(1, 'initialize', { ...initParams, clientInfo: { name: 'x' } }),
  'clientInfo without version',
);
bad('InitializeRequest', req(1, 'initialize'), 'no params');
bad('InitializeRequest', req(1, 'initialize', { ...initParams, capabilities: 'all' }), 'capabilities a string');

ok('InitializedNotification', notif('notifications/initialized'));
ok('InitializedNotification', notif('notifications/initialized', {}), 'empty params');
bad('InitializedNotification', notif('notifications/initialized', 'x'), 'params a string');
bad('InitializedNotification', notif('notifications/ready'), 'another method');
bad('InitializedNotification', notif('notifications/initialized', { _meta: 5 }), '_meta a number');

for (const [def, method] of [
  ['ListResourcesRequest', 'resources/list'],
  ['ListResourceTemplatesRequest', 'resources/templates/list'],
  ['ListPromptsRequest', 'prompts/list'],
  ['ListToolsRequest', 'tools/list'],
]) {
  ok(def, req(1, method), 'no params');
  ok(def, req(2, method, { cursor: 'page-2' }), 'with a cursor');
  ok(def, req(3, method, { _meta: { progressToken: 'p' } }), 'with a progress token');
  bad(def, req(4, method, { cursor: 5 }), 'cursor a number');
  bad(def, req(5, method, 'x'), 'params a string');
  bad(def, req(6, `${method}s`), 'another method');
}

for (const [def, method] of [
  ['ReadResourceRequest', 'resources/read'],
  ['SubscribeRequest', 'resources/subscribe'],
  ['UnsubscribeRequest', 'resources/unsubscribe'],
]) {
  ok(def, req(1, method, { uri: 'file:///notes/a.txt' }));
  bad(def, req(2, method), 'no params');
  bad(def, req(3, method, { uri: 5 }), 'uri a number');
  bad(def, req(4, method, {}), 'no uri');
}

ok('GetPromptRequest', req(1, 'prompts/get', { name: 'greet', arguments: { who: 'Ada' } }));
ok('GetPromptRequest', req(2, 'prompts/get', { name: 'greet' }), 'no arguments');
bad('GetPromptRequest', req(3, 'prompts/get', { name: 'greet', arguments: { who: 1 } }), 'argument a number');
bad('GetPromptRequest', req(4, 'prompts/get', { arguments: {} }), 'no name');

ok('CallToolRequest', req(1, 'tools/call', { name: 'echo', arguments: { message: 'hi' } }));
ok('CallToolRequest', req(2, 'tools/call', { name: 'echo' }), 'no arguments');
ok('CallToolRequest', req(3, 'tools/call', { name: 'echo', arguments: {}, task: { ttl: 1000 } }), 'task-augmented');
bad('CallToolRequest', req(4, 'tools/call', { name: 'echo', task: { ttl: 'x' } }), 'task ttl a string (11)', {
  validIn: [R03, R06],
});
bad('CallToolRequest', req(5, 'tools/call', { arguments: {} }), 'no name');
bad('CallToolRequest', req(6, 'tools/call', { name: 'echo', arguments: [1] }), 'arguments an array');
bad('CallToolRequest', req(7, 'tools/call'), 'no params');

ok('SetLevelRequest', req(1, 'logging/setLevel', { level: 'debug' }));
bad('SetLevelRequest', req(2, 'logging/setLevel', { level: 'verbose' }), 'level "verbose"');
bad('SetLevelRequest', req(3, 'logging/setLevel'), 'no params');

const promptRef = { type: 'ref/prompt', name: 'greet' };
const templateRef = { type: 'ref/resource', uri: 'file:///notes/{name}' };
ok('PromptReference', promptRef);
ok('PromptReference', { ...promptRef, title: 'Greet' }, 'with a title');
bad('PromptReference', { type: 'ref/prompt' }, 'no name');
bad('PromptReference', { ...promptRef, title: 5 }, 'title a number (06+)', { validIn: [R03] });
ok('ResourceReference', templateRef, 'valid', { only: [R03] });
bad('ResourceReference', { type: 'ref/resource' }, 'no uri', { only: [R03] });
bad('ResourceReference', { type: 'ref/template', uri: 'x' }, 'another type', { only: [R03] });
ok('ResourceTemplateReference', templateRef, 'valid', { only: [R06, R11] });
bad('ResourceTemplateReference', { type: 'ref/resource' }, 'no uri', { only: [R06, R11] });
bad('ResourceTemplateReference', { type: 'ref/template', uri: 'x' }, 'another type', { only: [R06, R11] });

const complete = { ref: promptRef, argument: { name: 'who', value: 'A' } };
ok('CompleteRequest', req(1, 'completion/complete', complete));
ok('CompleteRequest', req(2, 'completion/complete', { ...complete, ref: templateRef }), 'a template');
ok('CompleteRequest', req(3, 'completion/complete', { ...complete, context: { arguments: { a: 'b' } } }), 'context');
bad(
  'CompleteRequest',
  req(4, 'completion/complete', { ...complete, context: { arguments: { a: 1 } } }),
  'context argument a number (06+)',
  { validIn: [R03] },
);
bad('CompleteRequest', req(5, 'completion/complete', { ref: promptRef }), 'no argument');
bad(
  'CompleteRequest',
  req(6, 'completion/complete', { ...complete, argument: { name: 'who' } }),
  'argument without value',
);
bad(
  'CompleteRequest',
  req(7, 'completion/complete', { ...complete, ref: { type: 'ref/tool', name: 'x' } }),
  'ref/tool',
);

ok('RootsListChangedNotification', notif('notifications/roots/list_changed'));
bad('RootsListChangedNotification', notif('notifications/roots/changed'), 'another method');
bad('RootsListChangedNotification', notif('notifications/roots/list_changed', 'x'), 'params a string');

ok('Root', root);
ok('Root', { uri: 'file:///tmp' }, 'no name');
ok('Root', { ...root, _meta: { x: 1 } }, 'with _meta');
bad('Root', { name: 'project' }, 'no uri');
bad('Root', { ...root, name: 5 }, 'name a number');
bad('Root', { ...root, _meta: 5 }, '_meta a number (06+)', { validIn: [R03] });

ok('ListRootsResult', { roots: [root] });
ok('ListRootsResult', { roots: [] }, 'none');
bad('ListRootsResult', {}, 'no roots');
bad('ListRootsResult', { roots: [{ name: 'x' }] }, 'root without uri');
bad('ListRootsResult', { roots: root }, 'roots not an array');

ok('CreateMessageResult', sampled);
ok('CreateMessageResult', { ...sampled, content: image, stopReason: undefined }, 'image, no stopReason');
ok('CreateMessageResult', { ...sampled, content: [text, toolUse] }, 'array of blocks (11)', { invalidIn: [R03, R06] });
ok('CreateMessageResult', { ...sampled, content: toolUse, stopReason: 'toolUse' }, 'tool use (11)', {
  invalidIn: [R03, R06],
});
bad('CreateMessageResult', { ...sampled, model: undefined }, 'no model');
bad('CreateMessageResult', { ...sampled, role: 'bot' }, 'role "bot"');
bad('CreateMessageResult', { ...sampled, content: { type: 'text' } }, 'text block without text');
bad('CreateMessageResult', { ...sampled, stopReason: 1 }, 'stopReason a number');

ok('ElicitResult', { action: 'accept', content: { name: 'Ada', age: 36, subscribed: true } });
ok('ElicitResult', { action: 'decline' }, 'declined');
ok('ElicitResult', { action: 'cancel' }, 'cancelled');
ok('ElicitResult', { action: 'accept', content: { height: 1.75 } }, 'a fractional number');
ok('ElicitResult', { action: 'accept', content: { tags: ['a', 'b'] } }, 'a multi-select (11)', { invalidIn: [R06] });
bad('ElicitResult', { action: 'maybe' }, 'action "maybe"');
bad('ElicitResult', {}, 'no action');
bad('ElicitResult', { action: 'accept', content: { x: { a: 1 } } }, 'a nested object');
bad('ElicitResult', { action: 'accept', content: { tags: [1] } }, 'an array of numbers');

ok('ClientRequest', req(1, 'initialize', initParams), 'initialize');
ok('ClientRequest', req(2, 'ping'), 'ping');
ok('ClientRequest', req(3, 'tools/call', { name: 'echo' }), 'tools/call');
ok('ClientRequest', req(4, 'tasks/get', { taskId: 't-1' }), 'tasks/get (11)', { invalidIn: [R03, R06] });
bad('ClientRequest', req(5, 'sampling/createMessage', samplingParams), 'a server request');
bad('ClientRequest', req(6, 'tools/call', {}), 'tools/call without name');
bad('ClientRequest', req(7, 'server/discover'), 'server/discover (07)');

ok('ClientNotification', notif('notifications/initialized'), 'initialized');
ok('ClientNotification', notif('notifications/cancelled', { requestId: 1 }), 'cancelled');
ok('ClientNotification', notif('notifications/progress', { progressToken: 1, progress: 1 }), 'progress');
ok('ClientNotification', notif('notifications/roots/list_changed'), 'roots changed');
bad('ClientNotification', notif('notifications/message', { level: 'info', data: 'x' }), 'a server notification');
bad('ClientNotification', notif('notifications/cancelled'), 'cancelled without params');

ok('ClientResult', {}, 'empty (ping)');
ok('ClientResult', { roots: [root] }, 'roots');
ok('ClientResult', sampled, 'sampled message');
bad('ClientResult', 'ok', 'a string');
bad('ClientResult', null, 'null');
bad('ClientResult', { _meta: 5 }, '_meta a number');

// ---- 2026-07-28: the stateless wire's results and errors (samples without `only` are for the initialize wire)
const only07 = { only: [R07] };
const done = { resultType: 'complete' };
const cached = { ...done, ttlMs: 60000, cacheScope: 'public' };
const ok07 = (def: string, value: unknown, note = 'valid') => ok(def, value, note, only07);
const bad07 = (def: string, value: unknown, note: string) => bad(def, value, note, only07);
ok07('ResultType', 'input_required');
bad07('ResultType', 1, 'number');
ok07('ResultMetaObject', { 'io.modelcontextprotocol/serverInfo': impl, 'io.example/x': 1 });
bad07('ResultMetaObject', { 'io.modelcontextprotocol/serverInfo': { name: 'x' } }, 'serverInfo without version');
ok07('Result', { ...done, anything: 1 }, 'extra fields');
bad07('Result', {}, 'no resultType');
ok07('EmptyResult', done);
bad07('EmptyResult', { resultType: 'complete', _meta: 5 }, '_meta number');
const discovered = {
  ...cached,
  supportedVersions: [R07],
  capabilities: { tools: {} },
  _meta: { 'io.modelcontextprotocol/serverInfo': impl },
};
ok07('DiscoverResult', discovered);
ok07(
  'DiscoverResult',
  { ...discovered, instructions: 'Use echo.', ttlMs: 0, cacheScope: 'private' },
  'instructions, no caching',
);
bad07('DiscoverResult', { ...discovered, supportedVersions: undefined }, 'no supportedVersions');
bad07('DiscoverResult', { ...discovered, ttlMs: undefined }, 'no ttlMs');
bad07('DiscoverResult', { ...discovered, ttlMs: -1 }, 'negative ttlMs');
bad07('DiscoverResult', { ...discovered, cacheScope: 'shared' }, 'unknown cacheScope');
ok07('ListToolsResult', { ...cached, tools: [tool], nextCursor: 'n' });
bad07('ListToolsResult', { ...done, tools: [tool] }, 'no caching fields');
bad07('ListToolsResult', { ttlMs: 0, cacheScope: 'public', tools: [tool] }, 'no resultType');
ok07(
  'CallToolResult',
  { ...done, content: [text], structuredContent: [1, 2] },
  'structuredContent array (any JSON value in 07)',
);
bad07('CallToolResult', { content: [text] }, 'no resultType');
ok07('ListResourcesResult', { ...cached, resources: [resource] });
bad07('ListResourcesResult', { ...cached, resources: [resource], cacheScope: 'PUBLIC' }, 'cacheScope upper case');
ok07('ListResourceTemplatesResult', { ...cached, resourceTemplates: [template] });
bad07('ListResourceTemplatesResult', { ...cached, resourceTemplates: [template], ttlMs: 1.5 }, 'fractional ttlMs');
ok07('ReadResourceResult', { ...cached, contents: [textContents, blobContents] });
bad07('ReadResourceResult', { ...done, contents: [textContents] }, 'no caching fields');
ok07('ListPromptsResult', { ...cached, prompts: [prompt] });
bad07('ListPromptsResult', { ...cached, prompts: [prompt], ttlMs: '60' }, 'ttlMs string');
ok07('GetPromptResult', { ...done, messages: [{ role: 'user', content: text }] });
bad07('GetPromptResult', { messages: [{ role: 'user', content: text }] }, 'no resultType');
ok07('CompleteResult', { ...done, completion: { values: ['a'], total: 1 } });
bad07(
  'CompleteResult',
  { ...done, completion: { values: Array.from({ length: 101 }, (_, i) => `v${i}`) } },
  '101 values',
);
ok07('InputRequiredResult', {
  resultType: 'input_required',
  inputRequests: { ask: req('e-1', 'elicitation/create', formParams) },
  requestState: 'opaque',
});
ok07('InputRequiredResult', { resultType: 'input_required', requestState: 'opaque' }, 'requestState only');
bad07(
  'InputRequiredResult',
  { resultType: 'input_required', inputRequests: { ask: req('t', 'tools/list') } },
  'input request that is no client request',
);
bad07('InputRequiredResult', { inputRequests: {}, requestState: 's' }, 'no resultType');
ok07('JSONRPCErrorResponse', err(-32602, 'Resource not found', 1));
bad07('JSONRPCErrorResponse', err(-32602, 5, 1), 'message number');
ok07('HeaderMismatchError', err(-32020, 'Mcp-Method does not match the body', 1));
bad07('HeaderMismatchError', err(-32600, 'Header mismatch', 1), 'wrong code');
const capabilityError = {
  jsonrpc: '2.0',
  id: 1,
  error: { code: -32021, message: 'Needs elicitation', data: { requiredCapabilities: { elicitation: {} } } },
};
ok07('MissingRequiredClientCapabilityError', capabilityError);
bad07(
  'MissingRequiredClientCapabilityError',
  { ...capabilityError, error: { code: -32021, message: 'Needs elicitation' } },
  'no data',
);
const versionError = {
  jsonrpc: '2.0',
  id: 1,
  error: { code: -32022, message: 'Unsupported protocol version', data: { requested: '1900-01-01', supported: [R07] } },
};
ok07('UnsupportedProtocolVersionError', versionError);
bad07(
  'UnsupportedProtocolVersionError',
  { ...versionError, error: { ...versionError.error, data: { requested: '1900-01-01' } } },
  'no supported list',
);
bad07(
  'UnsupportedProtocolVersionError',
  { ...versionError, error: { ...versionError.error, code: -32602 } },
  'code -32602',
);
ok07('ProgressNotification', notif('notifications/progress', { progressToken: 'p', progress: 1, total: 2 }));
bad07('ProgressNotification', notif('notifications/progress', { progressToken: 'p' }), 'no progress');
ok07('LoggingMessageNotification', notif('notifications/message', { level: 'info', data: 'x' }));
bad07('LoggingMessageNotification', notif('notifications/message', { level: 'verbose', data: 'x' }), 'unknown level');

// subscriptions/listen (basic/patterns/subscriptions): the acknowledgement, tagged notifications, the closing result
const listenId = { 'io.modelcontextprotocol/subscriptionId': 'listen-1' };
ok07('SubscriptionFilter', { toolsListChanged: true, resourceSubscriptions: ['file:///a.txt'] });
bad07('SubscriptionFilter', { toolsListChanged: 'yes' }, 'toolsListChanged string');
ok07('NotificationMetaObject', listenId);
bad07('NotificationMetaObject', { 'io.modelcontextprotocol/subscriptionId': null }, 'null subscription id');
ok07(
  'SubscriptionsAcknowledgedNotification',
  notif('notifications/subscriptions/acknowledged', { _meta: listenId, notifications: { toolsListChanged: true } }),
);
bad07(
  'SubscriptionsAcknowledgedNotification',
  notif('notifications/subscriptions/acknowledged', { _meta: listenId }),
  'no notifications',
);
ok07('SubscriptionsListenResult', { ...done, _meta: listenId });
bad07('SubscriptionsListenResult', { ...done, _meta: {} }, 'no subscription id');
ok07('ToolListChangedNotification', notif('notifications/tools/list_changed', { _meta: listenId }));
bad07('ToolListChangedNotification', notif('notifications/tools/changed', {}), 'wrong method');
ok07('PromptListChangedNotification', notif('notifications/prompts/list_changed', { _meta: listenId }));
bad07('PromptListChangedNotification', notif('notifications/prompts/list_changed', 5), 'params number');
ok07('ResourceListChangedNotification', notif('notifications/resources/list_changed', { _meta: listenId }));
bad07('ResourceListChangedNotification', { method: 'notifications/resources/list_changed' }, 'no jsonrpc');
ok07(
  'ResourceUpdatedNotification',
  notif('notifications/resources/updated', { uri: 'file:///a.txt', _meta: listenId }),
);
bad07('ResourceUpdatedNotification', notif('notifications/resources/updated', { _meta: listenId }), 'no uri');
ok07(
  'CancelledNotification',
  notif('notifications/cancelled', { requestId: 'listen-1', reason: 'subscription ended' }),
);
bad07('CancelledNotification', notif('notifications/cancelled', { requestId: null }), 'null requestId');
ok07('InputRequest', { method: 'elicitation/create', params: formParams });
bad07('InputRequest', { method: 'tools/list', params: {} }, 'no client request');

// The Tasks extension's shapes (io.modelcontextprotocol/tasks), on 2026-07-28.
const extTask = {
  taskId: 't-1',
  status: 'working',
  createdAt: '2026-07-28T10:00:00Z',
  lastUpdatedAt: '2026-07-28T10:00:00Z',
  ttlMs: 60000,
  pollIntervalMs: 500,
};
const { ttlMs: _extTtl, ...extTaskWithoutTtl } = extTask;
ok07('TaskStatus', 'input_required');
bad07('TaskStatus', 'done', 'unknown status');
ok07('Task', extTask);
ok07('Task', { ...extTask, ttlMs: null, statusMessage: 'queued' }, 'unlimited ttl');
bad07('Task', extTaskWithoutTtl, 'no ttlMs');
ok07('CreateTaskResult', { resultType: 'task', ...extTask });
bad07('CreateTaskResult', extTask, 'no resultType');
ok07(
  'GetTaskResult',
  { resultType: 'complete', ...extTask, status: 'completed', result: { content: [] } },
  'completed with its result',
);
ok07(
  'GetTaskResult',
  {
    resultType: 'complete',
    ...extTask,
    status: 'input_required',
    inputRequests: { ask: { method: 'elicitation/create', params: formParams } },
  },
  'input_required with its requests',
);
ok07(
  'GetTaskResult',
  { resultType: 'complete', ...extTask, status: 'failed', error: { code: -32603, message: 'boom' } },
  'failed with its error',
);
bad07('GetTaskResult', { resultType: 'complete', ...extTask, status: 'completed' }, 'completed without result');
bad07(
  'GetTaskResult',
  { resultType: 'complete', ...extTask, status: 'input_required' },
  'input_required without inputRequests',
);
ok07('DetailedTask', { ...extTask, status: 'cancelled' }, 'cancelled');
bad07('DetailedTask', { ...extTask, status: 'failed' }, 'failed without error');
ok07(
  'TaskStatusNotification',
  notif('notifications/tasks', { ...extTask, status: 'completed', result: { content: [] }, _meta: listenId }),
);
bad07(
  'TaskStatusNotification',
  notif('notifications/tasks', { ...extTask, status: 'completed' }),
  'completed without result',
);

// ---- the Skills extension (io.modelcontextprotocol/skills) on 2026-07-28
const digest = `sha256:${'ab'.repeat(32)}`;
const skillFile = { uri: 'skill://git-workflow/SKILL.md', digest, size: 120 };
const skill = {
  uri: 'skill://git-workflow/SKILL.md',
  frontmatter: { name: 'git-workflow', description: 'Branch and commit conventions', license: 'MIT' },
  resources: [skillFile],
};
ok07('SkillsExtensionSettings', { directoryRead: true });
ok07('SkillsExtensionSettings', {}, 'no optional features');
bad07('SkillsExtensionSettings', { directoryRead: 'yes' }, 'directoryRead string');
ok07('SkillResource', skillFile);
bad07('SkillResource', { ...skillFile, digest: `sha256:${'AB'.repeat(32)}` }, 'upper-case digest');
bad07('SkillResource', { ...skillFile, digest: 'ab'.repeat(32) }, 'digest without sha256:');
bad07('SkillResource', { ...skillFile, size: -1 }, 'negative size');
bad07('SkillResource', { uri: skillFile.uri, digest }, 'no size');
ok07('Skill', skill);
ok07('Skill', { ...skill, resources: 'dynamic' }, 'dynamic');
bad07('Skill', { ...skill, resources: 'static' }, 'resources another string');
bad07('Skill', { uri: skill.uri, frontmatter: skill.frontmatter }, 'no resources');
bad07('Skill', { ...skill, frontmatter: { name: 'git-workflow' } }, 'frontmatter without description');
ok07('ListSkillsResult', { ...cached, skills: [skill], nextCursor: 'p2' });
ok07('ListSkillsResult', { ...cached, skills: [] }, 'empty');
bad07('ListSkillsResult', { ...done, skills: [skill] }, 'no ttlMs or cacheScope');
bad07('ListSkillsResult', { ...cached, resultType: 'input_required', skills: [] }, 'resultType not complete');
ok07('GetSkillResult', { ...cached, skill });
bad07('GetSkillResult', { ...cached }, 'no skill');
bad07('GetSkillResult', { ...cached, skill: { ...skill, resources: undefined } }, 'skill without resources');
ok07('ReadResourceDirectoryResult', {
  ...done,
  resources: [{ uri: 'skill://git-workflow/templates', name: 'templates', mimeType: 'inode/directory' }],
});
bad07('ReadResourceDirectoryResult', { ...done }, 'no resources');
bad07('ReadResourceDirectoryResult', { ...done, resources: [{ uri: 'skill://x/a' }] }, 'child without name');

// ---- what a client sends on 2026-07-28: every request names the version and the capabilities in _meta
const meta07 = {
  'io.modelcontextprotocol/protocolVersion': R07,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': clientInfo,
};
const req07 = (id: unknown, method: string, params: Record<string, unknown> = {}) =>
  req(id, method, { _meta: meta07, ...params });
ok07('RequestMetaObject', meta07);
ok07('RequestMetaObject', { ...meta07, 'io.modelcontextprotocol/logLevel': 'debug', progressToken: 'p' }, 'log level');
bad07('RequestMetaObject', { ...meta07, 'io.modelcontextprotocol/clientCapabilities': undefined }, 'no capabilities');
bad07('RequestMetaObject', { ...meta07, 'io.modelcontextprotocol/protocolVersion': undefined }, 'no version');
bad07('RequestMetaObject', { ...meta07, 'io.modelcontextprotocol/logLevel': 'verbose' }, 'log level "verbose"');
bad07(
  'RequestMetaObject',
  { ...meta07, 'io.modelcontextprotocol/clientInfo': { name: 'x' } },
  'clientInfo without version',
);
ok07('ClientCapabilities', {}, 'none');
ok07('ClientCapabilities', {
  extensions: { 'io.modelcontextprotocol/tasks': {} },
  sampling: { tools: {} },
  elicitation: { form: {} },
});
bad07('ClientCapabilities', { extensions: { 'io.example/x': 5 } }, 'extension settings a number');
bad07('ClientCapabilities', { sampling: { context: 5 } }, 'sampling.context a number');
ok07('DiscoverRequest', req07(1, 'server/discover'));
bad07('DiscoverRequest', req(1, 'server/discover'), 'no params');
bad07('DiscoverRequest', req(1, 'server/discover', {}), 'no _meta');
for (const [def, method] of [
  ['ListResourcesRequest', 'resources/list'],
  ['ListResourceTemplatesRequest', 'resources/templates/list'],
  ['ListPromptsRequest', 'prompts/list'],
  ['ListToolsRequest', 'tools/list'],
]) {
  ok07(def, req07(1, method));
  ok07(def, req07(2, method, { cursor: 'page-2' }), 'with a cursor');
  bad07(def, req(3, method), 'no params');
  bad07(def, req07(4, method, { cursor: 5 }), 'cursor a number');
}
const retry07 = { inputResponses: { ask: { action: 'accept', content: { name: 'Ada' } } }, requestState: 'opaque-1' };
ok07('ReadResourceRequest', req07(1, 'resources/read', { uri: 'file:///notes/a.txt' }));
ok07('ReadResourceRequest', req07(2, 'resources/read', { uri: 'file:///notes/a.txt', ...retry07 }), 'a retry');
bad07('ReadResourceRequest', req07(3, 'resources/read'), 'no uri');
bad07(
  'ReadResourceRequest',
  req07(4, 'resources/read', { uri: 'file:///a', requestState: 5 }),
  'requestState a number',
);
ok07('SubscriptionsListenRequest', req07(1, 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
bad07('SubscriptionsListenRequest', req07(2, 'subscriptions/listen'), 'no notifications');
bad07(
  'SubscriptionsListenRequest',
  req07(3, 'subscriptions/listen', { notifications: { toolsListChanged: 'yes' } }),
  'filter a string',
);
ok07('GetPromptRequest', req07(1, 'prompts/get', { name: 'greet', arguments: { who: 'Ada' } }));
bad07('GetPromptRequest', req07(2, 'prompts/get', { name: 'greet', arguments: { who: 1 } }), 'argument a number');
bad07('GetPromptRequest', req07(3, 'prompts/get'), 'no name');
ok07('CallToolRequest', req07(1, 'tools/call', { name: 'echo', arguments: { message: 'hi' } }));
ok07('CallToolRequest', req07(2, 'tools/call', { name: 'echo', arguments: {}, ...retry07 }), 'a retry');
bad07('CallToolRequest', req07(3, 'tools/call', { arguments: {} }), 'no name');
bad07(
  'CallToolRequest',
  req07(4, 'tools/call', { name: 'echo', inputResponses: { ask: { action: 'maybe' } } }),
  'an answer that is no result',
);
bad07('CallToolRequest', req(5, 'tools/call', { name: 'echo' }), 'no _meta');
ok07('CompleteRequest', req07(1, 'completion/complete', complete));
bad07('CompleteRequest', req07(2, 'completion/complete', { argument: complete.argument }), 'no ref');
ok07('InputResponses', { a: { roots: [root] }, b: sampled, c: { action: 'decline' } });
bad07('InputResponses', { a: 5 }, 'an answer a number');
ok07('ListRootsResult', { roots: [root] });
bad07('ListRootsResult', { roots: [{ name: 'x' }] }, 'root without uri');
ok07('CreateMessageResult', sampled);
bad07('CreateMessageResult', { ...sampled, model: undefined }, 'no model');
ok07('ElicitResult', { action: 'accept', content: { tags: ['a'] } });
bad07('ElicitResult', { action: 'maybe' }, 'action "maybe"');
ok07('ClientRequest', req07(1, 'server/discover'), 'server/discover');
ok07('ClientRequest', req07(2, 'tools/call', { name: 'echo' }), 'tools/call');
bad07('ClientRequest', req(3, 'initialize', initParams), 'initialize');
bad07('ClientRequest', req07(4, 'ping'), 'ping');
ok07('ClientNotification', notif('notifications/cancelled', { requestId: 1, reason: 'gave up' }));
bad07('ClientNotification', notif('notifications/cancelled', { reason: 'gave up' }), 'cancelled without requestId');
bad07('ClientNotification', notif('notifications/initialized'), 'initialized');
bad07('CancelledNotification', notif('notifications/cancelled', { reason: 'x' }), 'no requestId');
ok07('ClientResult', { resultType: 'complete' });
bad07('ClientResult', {}, 'no resultType');

export const HAND_MADE: readonly Sample[] = samples;
