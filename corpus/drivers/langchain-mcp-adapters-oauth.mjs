// For the authorization scenarios (docs/clients-auth.md), not a corpus entry: copied by hand beside the installed
// library (`{corpus}/pkgs/langchain-mcp-adapters/drivers/`, with oauth-app.mjs) and run as `mcp-conformance client --scenario auth/… --
// node langchain-mcp-adapters-oauth.mjs`.
// @langchain/mcp-adapters' OAuth option, a MultiServerMCPClient server with an `authProvider` (which the library
// hands to the transport of the TypeScript SDK v1 it is built on), driven as an app would: a user's app passes an
// in-memory provider whose "browser" fetches the authorization URL and keeps the code it redirects to; a service
// passes the SDK's client-credentials provider where the context gives it such credentials (v1 has no jwt-bearer
// grant). When a step fails with a code waiting, the app redeems it with the SDK's auth(provider, {serverUrl,
// authorizationCode}) (the library has no call of its own for that) and tries again.
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { AppProvider } from './oauth-app.mjs';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

const credentials = scenario.startsWith('auth/client-credentials');
const provider =
  credentials && context.private_key_pem
    ? new PrivateKeyJwtProvider({
        clientId: context.client_id,
        privateKey: context.private_key_pem,
        algorithm: context.signing_algorithm,
      })
    : credentials
      ? new ClientCredentialsProvider({ clientId: context.client_id, clientSecret: context.client_secret })
      : new AppProvider(context, 'langchain-auth-driver');

/** Runs `step`; when it fails with a code waiting at the callback, redeems it and runs the step again (2 more times). */
async function authorized(step) {
  for (let i = 0; ; i++) {
    try {
      return await step();
    } catch (e) {
      if (i >= 2 || !provider.code) throw e;
      const code = provider.code;
      provider.code = undefined;
      await auth(provider, { serverUrl: url, authorizationCode: code });
      // Spent with the code: a later 401 discovers again (the authorization server may have moved).
      provider.discovery = undefined;
    }
  }
}

const client = new MultiServerMCPClient({ mcpServers: { server: { url, authProvider: provider } } });
try {
  const tools = await authorized(() => client.getTools());
  if (tools[0]) await authorized(() => tools[0].invoke({ text: 'hello' }));
} finally {
  await client.close();
}
