// For the authorization scenarios (docs/clients-auth.md), not a corpus entry: copied by hand beside the installed
// library (`{corpus}/pkgs/mastra-mcp/drivers/`, with oauth-app.mjs) and run as `mcp-conformance client --scenario auth/… -- node
// mastra-mcp-oauth.mjs`.
// @mastra/mcp's OAuth option, an MCPClient server with an `authProvider` (which the library hands to the transport of
// the TypeScript SDK v2 it is built on), driven as an app would: a user's app passes an in-memory provider whose
// "browser" fetches the authorization URL and keeps the code it redirects to; a service passes the SDK's
// client-credentials or jwt-bearer provider where the context gives it such credentials. The library records
// `needs-auth`, and its authenticate() takes only its own MCPOAuthClientProvider (which never registers a client), so
// the app redeems the code with the SDK's auth(provider, {serverUrl, authorizationCode, iss}) and tries again.
import { MCPClient } from '@mastra/mcp';
import * as sdk from '@modelcontextprotocol/client';
import { AppProvider } from './oauth-app.mjs';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

/** A service: a jwt-bearer grant (enterprise-managed: an ID-JAG from the identity provider; or a workload JWT). */
const crossApp = (assertion) =>
  new sdk.CrossAppAccessProvider({ assertion, clientId: context.client_id, clientSecret: context.client_secret });
const idJag = async (ctx) =>
  (
    await sdk.requestJwtAuthorizationGrant({
      tokenEndpoint: context.idp_token_endpoint,
      audience: ctx.authorizationServerUrl,
      resource: ctx.resourceUrl,
      idToken: context.idp_id_token,
      clientId: context.idp_client_id,
      scope: ctx.scope,
      fetchFn: ctx.fetchFn,
    })
  ).jwtAuthGrant;
const credentials = scenario.startsWith('auth/client-credentials');
const provider = context.idp_id_token
  ? crossApp(idJag)
  : context.valid_jwt
    ? crossApp(async () => context.valid_jwt)
    : credentials && context.private_key_pem
      ? new sdk.PrivateKeyJwtProvider({
          clientId: context.client_id,
          privateKey: context.private_key_pem,
          algorithm: context.signing_algorithm,
        })
      : credentials
        ? new sdk.ClientCredentialsProvider({ clientId: context.client_id, clientSecret: context.client_secret })
        : new AppProvider(context, 'mastra-auth-driver');

/**
 * Runs `step` until `failed` says it did not (2 more times at most), redeeming first the code the provider's browser
 * brought back (with the callback's iss, RFC 9207). MCPClient reports a server's failure in its result.
 */
async function authorized(step, failed) {
  for (let i = 0; ; i++) {
    const out = await step();
    if (!failed(out) || i >= 2 || !provider.code) return out;
    const code = provider.code;
    provider.code = undefined;
    const iss = provider.back.searchParams.get('iss') ?? undefined;
    await sdk.auth(provider, { serverUrl: url, authorizationCode: code, iss });
    // Spent with the code: a later 401 discovers again (the authorization server may have moved).
    provider.discovery = undefined;
  }
}

const mcp = new MCPClient({ servers: { server: { url: new URL(url), authProvider: provider } } });
try {
  const { tools, errors } = await authorized(
    () => mcp.listToolsWithErrors(),
    (r) => Object.keys(r.errors).length > 0,
  );
  if (Object.keys(errors).length > 0) throw new Error(`listing tools: ${JSON.stringify(errors)}`);
  const name = Object.keys(tools)[0];
  if (name) {
    const result = await authorized(
      () => tools[name].execute({ text: 'hello' }, {}).catch((e) => ({ isError: true, thrown: e })),
      (r) => r?.isError === true,
    );
    if (result?.thrown) throw result.thrown;
  }
} finally {
  await mcp.disconnect();
}
