// The envelope of an answer to a malformed line the suite sent on purpose: judged by the check that sent the line,
// since the frame checks set such answers aside (InboundEvent.probe).
import type { Message } from '../../session/session.js';
import { errorDefinition, validate } from '../../schema/validators.js';

/**
 * What is wrong with the envelope of an answer to a line whose id could not be used (none, null, or one no request may
 * carry): JSON-RPC 2.0 §5 "If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid
 * Request), it MUST be Null"; MCP asks for "jsonrpc": "2.0", and an error of the schema's shape, never a result (a
 * result's id is a request's). Which error code is right is the sending check's own question. Undefined: nothing wrong.
 */
export function probeAnswerFault(answer: Message, revision: string): string | undefined {
  if ('id' in answer && answer.id !== null)
    return `its id is ${JSON.stringify(answer.id)}, where an id that could not be read is answered with null (JSON-RPC 2.0 §5)`;
  if (answer.jsonrpc !== '2.0') return 'it lacks "jsonrpc": "2.0"';
  if ('result' in answer)
    return `it is a result with id ${JSON.stringify(answer.id ?? null)}, where a result answers a request, whose id is a string or an integer (MCP)`;
  if (!('error' in answer)) return undefined;
  // Its id null (or none) is right here; the schema, made for answers to requests, is asked about the rest.
  const r = validate(revision, errorDefinition(revision), { ...answer, id: 0 });
  return r.ok ? undefined : `its error does not validate against ${errorDefinition(revision)}: ${r.errors.join('; ')}`;
}
