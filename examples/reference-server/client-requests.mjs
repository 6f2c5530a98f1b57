// Tools that ask the client something in the middle of a call (the initialize wire, over stdio): a sampling request,
// a form elicitation, a URL elicitation and a roots request, each only when the client declared the capability.
// A tool's run returns a promise here; the server answers the call when the client has answered the request.
import { randomUUID } from 'node:crypto';

const text = (t) => ({ type: 'text', text: t });
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const refused = (what) => ({
  content: [text(`This client does not support ${what}, so the tool cannot ask for it.`)],
  isError: true,
});

/** The form the confirm-choice tool asks for: flat, primitive properties only (client/elicitation#requested-schema). */
export const CHOICE_SCHEMA = {
  type: 'object',
  properties: {
    colour: { type: 'string', title: 'Colour', enum: ['red', 'green', 'blue'] },
    remember: { type: 'boolean', title: 'Remember the choice' },
  },
  required: ['colour'],
};

/** Sends a request to the client; resolves with the client's response message (result or error). */
export function ask(server, method, params) {
  server.clientRequests ??= new Map();
  const id = `${server.name ?? 'mcp-reference-server'}-ask-${++server.state.requestCounter}`;
  return new Promise((resolve) => {
    server.clientRequests.set(id, resolve);
    server.send({ jsonrpc: '2.0', id, method, params });
  });
}

/** Hands a response of the client to the request it answers; false when it answers none of ours. */
export function answerFromClient(server, msg) {
  const resolve = server.clientRequests?.get(msg.id);
  if (!resolve) return false;
  server.clientRequests.delete(msg.id);
  resolve(msg);
  return true;
}

const clientCapability = (server, name) =>
  isObject(server.state.clientCapabilities?.[name]) ? server.state.clientCapabilities[name] : undefined;
const failed = (what, reply) => ({
  content: [text(`The client could not ${what}: ${JSON.stringify(reply.error)}`)],
  isError: true,
});

/** The tools; `clientRequests: true` keeps them to the initialize wire over stdio (mcp.mjs, visibleTools). */
export function clientRequestTools() {
  const readOnly = { readOnlyHint: true, openWorldHint: false };
  return [
    {
      name: 'ask-llm',
      title: 'Ask the LLM',
      description: "Asks the client's language model a question (sampling).",
      inputSchema: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] },
      annotations: readOnly,
      clientRequests: true,
      run: async (args, server) => {
        if (!clientCapability(server, 'sampling')) return refused('sampling');
        const reply = await ask(server, 'sampling/createMessage', {
          messages: [{ role: 'user', content: text(String(args.question)) }],
          systemPrompt: 'Answer in one sentence.',
          maxTokens: 100,
        });
        if (!isObject(reply.result)) return failed('sample a message', reply);
        const content = reply.result.content;
        const answer = isObject(content) && content.type === 'text' ? content.text : JSON.stringify(content);
        return { content: [text(`The model (${reply.result.model}) says: ${answer}`)] };
      },
    },
    {
      name: 'confirm-choice',
      title: 'Confirm a Choice',
      description: 'Asks the user to pick a colour (a form elicitation).',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: readOnly,
      clientRequests: true,
      run: async (_args, server, rev) => {
        if (rev < '2025-06-18' || !clientCapability(server, 'elicitation')) return refused('elicitation');
        const reply = await ask(server, 'elicitation/create', {
          message: 'Which colour do you prefer?',
          requestedSchema: CHOICE_SCHEMA,
        });
        if (!isObject(reply.result)) return failed('ask the user', reply);
        const { action, content } = reply.result;
        if (action !== 'accept') return { content: [text(`The user chose not to answer (${action}).`)] };
        if (!isObject(content) || !CHOICE_SCHEMA.properties.colour.enum.includes(content.colour)) {
          return { content: [text(`The answer does not fit the form: ${JSON.stringify(content)}`)], isError: true };
        }
        return { content: [text(`The user chose ${content.colour}.`)] };
      },
    },
    {
      name: 'sign-in',
      title: 'Sign In',
      description: 'Sends the user to a sign-in page (a URL elicitation, 2025-11-25).',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: readOnly,
      clientRequests: true,
      run: async (_args, server, rev) => {
        if (rev < '2025-11-25' || !clientCapability(server, 'elicitation')?.url) return refused('URL elicitation');
        const elicitationId = randomUUID();
        const reply = await ask(server, 'elicitation/create', {
          mode: 'url',
          message: 'Please sign in to the example service.',
          url: `https://auth.example.com/sign-in?elicitation=${elicitationId}`,
          elicitationId,
        });
        if (!isObject(reply.result)) return failed('open the sign-in page', reply);
        return {
          content: [
            text(`Sign-in ${reply.result.action === 'accept' ? 'started' : `not started (${reply.result.action})`}.`),
          ],
        };
      },
    },
    {
      name: 'list-roots',
      title: 'List Roots',
      description: "Lists the client's roots (roots/list).",
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: readOnly,
      clientRequests: true,
      run: async (_args, server) => {
        if (!clientCapability(server, 'roots')) return refused('roots');
        const reply = await ask(server, 'roots/list', {});
        if (!isObject(reply.result) || !Array.isArray(reply.result.roots)) return failed('list its roots', reply);
        return { content: [text(`Roots: ${reply.result.roots.map((r) => r?.uri).join(', ') || '(none)'}`)] };
      },
    },
  ];
}
