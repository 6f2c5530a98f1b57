#!/usr/bin/env node
// A conformance-style client built on a TypeScript SDK's OAuth client (v1: @modelcontextprotocol/sdk; v2:
// @modelcontextprotocol/client), as the SDKs' own conformance clients are: `node sdk-auth-client.mjs [--v2] <url>`.
// It reads MCP_CONFORMANCE_SCENARIO and MCP_CONFORMANCE_CONTEXT, connects, lists the tools and calls the first one,
// finishing each authorization the SDK starts by fetching the authorization URL and taking the code from the redirect,
// and ends its session (DELETE) before it exits. What the SDK offers is used where the scenario asks for it: a client
// assertion (private_key_jwt) with the key the context gives; v2 only (v1 has neither): DPoP proofs, and the
// jwt-bearer grant of workload identity federation and enterprise-managed authorization.
const v2 = process.argv.includes('--v2');
const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

const sdk = v2
  ? await import('@modelcontextprotocol/client')
  : {
      ...(await import('@modelcontextprotocol/sdk/client/index.js')),
      ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')),
      ...(await import('@modelcontextprotocol/sdk/client/auth.js')),
      ...(await import('@modelcontextprotocol/sdk/client/auth-extensions.js')),
    };
const { Client, StreamableHTTPClientTransport, UnauthorizedError } = sdk;

const REDIRECT = 'http://localhost:3000/callback';

/** An in-memory OAuthClientProvider whose "browser" fetches the authorization URL and keeps the code it redirects to. */
class Provider {
  constructor() {
    // A jwt-bearer context (a workload JWT, an ID token) is no authorization-code client: v1, which has no such grant,
    // goes its usual way (registration) with it.
    const jwtGrant = context.valid_jwt || context.idp_id_token;
    this.info =
      context.client_id && !jwtGrant
        ? { client_id: context.client_id, client_secret: context.client_secret }
        : undefined;
    this.saved = undefined;
    this.verifier = '';
    this.code = undefined;
    if (scenario === 'auth/basic-cimd') this.clientMetadataUrl = 'https://conformance-test.local/client-metadata.json';
  }
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: 'sdk-conformance-client',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens) {
    this.saved = tokens;
  }
  /** The app's state (the SDK asks the provider for one and leaves checking it to the app). */
  state() {
    this.sent = crypto.randomUUID();
    return this.sent;
  }
  saveCodeVerifier(v) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  /** v2: a DPoP key for the whole run where the scenario asks for sender-constrained tokens. */
  async dpop() {
    if (!scenario.startsWith('auth/dpop') || !sdk.DpopSession) return undefined;
    this.session ??= await sdk.DpopSession.create();
    return this.session;
  }
  async redirectToAuthorization(authorizationUrl) {
    const r = await fetch(authorizationUrl, { redirect: 'manual' });
    const location = r.headers.get('location');
    if (!location) throw new Error(`authorization endpoint answered ${r.status} without a redirect`);
    const back = new URL(location);
    if (back.searchParams.get('state') !== this.sent) throw new Error('state mismatch');
    this.code = back.searchParams.get('code') ?? undefined;
    this.callback = back;
  }
}

/**
 * v2's jwt-bearer grant (CrossAppAccessProvider): enterprise-managed authorization exchanges the context's ID token at
 * its identity provider for an ID-JAG (requestJwtAuthorizationGrant); workload identity federation presents the
 * workload JWT the context gives.
 */
const jwtGrant = (assertion) =>
  new sdk.CrossAppAccessProvider({ assertion, clientId: context.client_id, clientSecret: context.client_secret });
const enterprise = async (ctx) =>
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

const provider =
  context.idp_id_token && sdk.CrossAppAccessProvider
    ? jwtGrant(enterprise)
    : context.valid_jwt && sdk.CrossAppAccessProvider
      ? jwtGrant(async () => context.valid_jwt)
      : scenario.startsWith('auth/client-credentials') && context.private_key_pem && sdk.PrivateKeyJwtProvider
        ? new sdk.PrivateKeyJwtProvider({
            clientId: context.client_id,
            privateKey: context.private_key_pem,
            algorithm: context.signing_algorithm,
          })
        : scenario.startsWith('auth/client-credentials') && sdk.ClientCredentialsProvider
          ? new sdk.ClientCredentialsProvider({ clientId: context.client_id, clientSecret: context.client_secret })
          : new Provider();
const client = new Client({ name: 'sdk-conformance-client', version: '1.0.0' });

/**
 * Runs `step`, finishing an authorization the SDK started (once more), as a desktop client would. The SDK starts an
 * authorization on every 401 and 403 it meets; how often to go on is the host's choice, and a host that retries a
 * refused step once keeps to the retry limit (client-side/auth/retry-limit).
 */
async function authorized(step, transport) {
  for (let i = 0; ; i++) {
    try {
      return await step();
    } catch (e) {
      if (!(e instanceof UnauthorizedError) || i >= 1 || !provider.code) throw e;
      const code = provider.code;
      provider.code = undefined;
      // v2 takes the callback's parameters (it checks iss, RFC 9207); v1 the code.
      await transport.current.finishAuth(v2 ? provider.callback.searchParams : code);
    }
  }
}

const transport = { current: undefined };
const connect = async () => {
  transport.current = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  await client.connect(transport.current);
};
await authorized(connect, transport);
try {
  const { tools } = await authorized(() => client.listTools(), transport);
  if (tools[0])
    await authorized(() => client.callTool({ name: tools[0].name, arguments: { text: 'hello' } }), transport);
} finally {
  // The session ends with a DELETE (Streamable HTTP: a client that no longer needs it SHOULD), as a host's client
  // does, also when a call is refused for good.
  await transport.current.terminateSession().catch(() => undefined);
  await client.close();
}
