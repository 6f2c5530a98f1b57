// The JSON-RPC envelope of every frame: stdout lines, jsonrpc, ids, result xor error, error and notification form.
import { isObject } from '../../json.js';
import { requirement } from '../kit/requirement.js';
import { type FrameRule, answersUnreadable, failing, messageOf } from '../kit/frame-rule.js';

export const ENVELOPE_RULES: FrameRule[] = [
  {
    id: 'transport/stdio/stdout-only-messages',
    title: 'stdout carries only JSON-RPC messages, one per line',
    requirement: requirement(
      'stdio.stdout.only-mcp',
      'MUST',
      'basic/transports#stdio',
      'The server writes nothing to stdout that is not a valid MCP message; messages are newline-delimited with no embedded newlines',
    ),
    covers: ['stdio.framing.newline', 'base.utf8'],
    looksAt: 'stdout line',
    transport: 'stdio',
    inspect(e) {
      const problem = e.line.problem;
      if (problem === undefined) {
        if (e.kind !== 'invalid' || e.message) return [];
        return failing('a stdout line is JSON but not a JSON-RPC message', { actual: e.line.entry.text });
      }
      // SDK readers skip blank lines and strip \r, so these only warn.
      const severity = problem === 'blank line' || problem.startsWith('CRLF') ? 'warn' : 'fail';
      return [
        {
          severity,
          message: `stdout line #${e.line.entry.seq}: ${problem}`,
          expected: 'one JSON-RPC message per line',
          actual: e.line.entry.text,
        },
      ];
    },
  },
  {
    id: 'transport/stdio/no-batch',
    title: 'No JSON-RPC batch arrays on stdout (2025-06-18 and later)',
    requirement: requirement(
      'stdio.framing.single',
      'MUST',
      'basic/transports#stdio',
      'Messages on stdio are individual JSON-RPC requests, notifications or responses, not batches',
    ),
    looksAt: 'message',
    transport: 'stdio',
    inspect(e) {
      if (!e.message) return undefined;
      if (!e.batch || e.revision === undefined || e.revision === '2025-03-26') return [];
      return failing(`a batch array was sent in a ${e.revision} session`, {
        expected: 'a single JSON object per line',
        actual: e.line.entry.text,
      });
    },
  },
  {
    id: 'base/jsonrpc/version',
    title: 'Every message carries "jsonrpc": "2.0"',
    requirement: requirement(
      'base.jsonrpc.version',
      'MUST',
      'basic#messages',
      'Every message the server sends is a JSON-RPC 2.0 object with "jsonrpc": "2.0"',
    ),
    looksAt: 'message',
    inspect(e) {
      const m = messageOf(e);
      if (!m) return undefined;
      return m.jsonrpc === '2.0'
        ? []
        : failing('message without "jsonrpc": "2.0"', {
            expected: { jsonrpc: '2.0' },
            actual: { jsonrpc: m.jsonrpc ?? null },
          });
    },
  },
  {
    id: 'base/response/id-echo',
    title: 'A response id equals the request id in value and JSON type',
    requirement: requirement(
      'base.response.id-echo',
      'MUST',
      'basic#responses',
      'A response carries the same id as the request it answers, with the same JSON type',
    ),
    looksAt: 'response to a request',
    inspect(e) {
      if (e.kind !== 'response' || !e.exchange) return undefined;
      if (!e.looseId) return [];
      return failing(
        `response to ${e.exchange.method} has id ${JSON.stringify(e.message?.id)} (${typeof e.message?.id}), the request had ${JSON.stringify(e.exchange.id)} (${typeof e.exchange.id})`,
        {
          expected: { id: e.exchange.id },
          actual: { id: e.message?.id },
        },
      );
    },
  },
  {
    id: 'base/response/unsolicited',
    title: 'Every response answers a request the client sent',
    requirement: requirement(
      'base.response.id-echo',
      'MUST',
      'basic#responses',
      'Responses answer requests: a response id is the id of a request the client sent',
    ),
    looksAt: 'response',
    inspect(e) {
      const m = messageOf(e);
      if (e.kind !== 'response' || !m) return undefined;
      // An answer to a malformed line the client sent (an id null, or that line's own id echoed, e.g. "id": []) never
      // comes here: the check that sent the line judges it (InboundEvent.probe).
      // An HTTP body answers the POST that carried it, whatever its id (line.answers).
      if (e.exchange || answersUnreadable(m) || e.line.answers !== undefined) return [];
      return failing(`response with id ${JSON.stringify(m.id)} answers no request the client sent`, {
        expected: 'an id of a pending request',
        actual: m,
      });
    },
  },
  {
    id: 'transport/http/error-body',
    title: 'The JSON body of an HTTP error status is a JSON-RPC error with no id, or the id of the request it answers',
    requirement: requirement(
      'http.post.error-body',
      'SHOULD',
      'basic/transports#sending-messages-to-the-server',
      'An HTTP error status to a POST may carry a JSON-RPC error response without an id; a JSON body is that, never another id',
    ),
    looksAt: 'body of an HTTP error status',
    transport: 'http',
    inspect(e) {
      const http = e.line.httpError;
      if (!http) return undefined;
      const where = `the body of HTTP ${http.status} to the POST #${http.post}`;
      const m = messageOf(e);
      if (!m)
        return [{ severity: 'warn', message: `${where} is JSON but no JSON-RPC message`, actual: e.line.entry.text }];
      const request = e.line.answers;
      // No id is what the transport names; the request's own id, or null where none could be read, is JSON-RPC's.
      if (!('id' in m) || (request !== null && request !== undefined && m.id === request)) return [];
      if (m.id === null && (request === null || answersUnreadable(m))) return [];
      return [
        {
          severity: 'warn',
          message: `${where} has id ${JSON.stringify(m.id)}; ${request === null || request === undefined ? 'the POST held no request id' : `it answers the request with id ${JSON.stringify(request)}`}`,
          expected:
            request === null || request === undefined ? 'no id (or null)' : `no id, or ${JSON.stringify(request)}`,
          actual: m,
        },
      ];
    },
  },
  {
    id: 'base/response/result-xor-error',
    title: 'A response has exactly one of result and error',
    requirement: requirement(
      'base.response.xor',
      'MUST',
      'basic#responses',
      'A response sets either result or error, never both and never neither',
    ),
    looksAt: 'response',
    inspect(e) {
      const m = messageOf(e);
      if (!m || typeof m.method === 'string') return undefined;
      const both = 'result' in m && 'error' in m;
      if (e.kind === 'response' && !both) return [];
      return failing(both ? 'response sets both result and error' : 'message has neither method, result nor error', {
        expected: 'exactly one of result, error',
        actual: m,
      });
    },
  },
  {
    id: 'base/result/object',
    title: 'A result is a JSON object',
    requirement: requirement(
      'base.result.object',
      'MUST',
      'basic#responses',
      'The result of a response is a JSON object',
    ),
    looksAt: 'result response',
    inspect(e) {
      const m = messageOf(e);
      if (e.kind !== 'response' || !m || !('result' in m)) return undefined;
      return isObject(m.result)
        ? []
        : failing(
            `result of ${e.exchange?.method ?? 'a response'} is ${Array.isArray(m.result) ? 'an array' : JSON.stringify(m.result)}`,
            { expected: 'an object', actual: m.result },
          );
    },
  },
  {
    id: 'base/error/shape',
    title: 'An error has an integer code and a string message',
    requirement: requirement(
      'base.error.shape',
      'MUST',
      'basic#responses',
      'An error response carries an error object whose code is an integer and whose message is a string',
    ),
    looksAt: 'error response',
    inspect(e) {
      const m = messageOf(e);
      if (e.kind !== 'response' || !m || !('error' in m)) return undefined;
      const err = m.error;
      if (isObject(err) && Number.isInteger(err.code) && typeof err.message === 'string') return [];
      return failing('error object without an integer code and a string message', {
        expected: { code: 'integer', message: 'string' },
        actual: err,
      });
    },
  },
  {
    id: 'base/notification/no-id',
    title: 'Notifications carry no id',
    requirement: requirement(
      'base.notification.no-id',
      'MUST',
      'basic#notifications',
      'Notifications do not include an id',
    ),
    looksAt: 'notification',
    inspect(e) {
      const m = messageOf(e);
      if (!m || typeof m.method !== 'string' || !m.method.startsWith('notifications/')) return undefined;
      return 'id' in m
        ? failing(`${m.method} was sent with id ${JSON.stringify(m.id)}`, { expected: 'no id', actual: m })
        : [];
    },
  },
];
