// For the authorization scenarios (docs/clients-auth.md), not a corpus entry: copied by hand beside the installed
// library (`{corpus}/pkgs/ai-sdk-mcp/drivers/`) and run as `mcp-conformance client --scenario auth/… -- node
// ai-sdk-mcp-oauth.mjs`.
// @ai-sdk/mcp's OAuth client (createMCPClient with an authProvider, and its exported auth()) driven as an app would:
// an in-memory provider whose "browser" fetches the authorization URL and keeps the code; on UnauthorizedError the
// app finishes the authorization with auth(provider, {serverUrl, authorizationCode, callbackState}) and connects again.
const lib = await import('@ai-sdk/mcp');
const { createMCPClient, auth, AuthorizationServerMismatchError } = lib;
const url = process.argv.at(-1);
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const REDIRECT = 'http://localhost:3000/callback';
class Provider {
  constructor() {
    this.info =
      context.client_id && context.client_secret
        ? { client_id: context.client_id, client_secret: context.client_secret }
        : undefined;
  }
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: 'ai-sdk-auth-driver',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(i) {
    this.info = i;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(t) {
    this.saved = t;
  }
  saveCodeVerifier(v) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  state() {
    this.sent = crypto.randomUUID();
    return this.sent;
  }
  async redirectToAuthorization(u) {
    const r = await fetch(u, { redirect: 'manual' });
    const loc = r.headers.get('location');
    if (!loc) throw new Error(`authorization endpoint answered ${r.status}`);
    const back = new URL(loc);
    if (back.searchParams.get('state') !== this.sent) throw new Error('state mismatch');
    this.code = back.searchParams.get('code') ?? undefined;
    this.back = back;
  }
}
const provider = new Provider();
/**
 * Runs `step`, as an app does around the library: an authorization it started is finished with auth() (the code, the
 * state and the iss of the callback); credentials of another authorization server (AuthorizationServerMismatchError)
 * are dropped and the step runs again.
 */
async function authorized(step) {
  for (let i = 0; ; i++) {
    try {
      return await step();
    } catch (e) {
      if (i >= 3) throw e;
      // On the 2026-07-28 wire the library hands the mismatch on as the cause of an MCPClientError.
      if (AuthorizationServerMismatchError.isInstance(e) || AuthorizationServerMismatchError.isInstance(e?.cause)) {
        provider.info = undefined;
        provider.saved = undefined;
        continue;
      }
      if (!provider.code) throw e;
      const code = provider.code;
      provider.code = undefined;
      await auth(provider, {
        serverUrl: url,
        authorizationCode: code,
        callbackState: provider.back.searchParams.get('state') ?? undefined,
        callbackIssuer: provider.back.searchParams.get('iss') ?? undefined,
      });
    }
  }
}
const client = await authorized(() => createMCPClient({ transport: { type: 'http', url, authProvider: provider } }));
try {
  const tools = await authorized(() => client.tools());
  const name = Object.keys(tools)[0];
  if (name) await authorized(() => tools[name].execute({ text: 'hello' }, { toolCallId: 'call-1', messages: [] }));
} finally {
  await client.close();
}
