// The in-memory OAuthClientProvider an app passes to a library built on the TypeScript SDK (the mastra and langchain
// authorization drivers): copied beside them. Its "browser" fetches the authorization URL and keeps the code, state
// and iss the authorization endpoint redirects to.
export const REDIRECT = 'http://localhost:3000/callback';

/**
 * A user's app: a pre-registered client where the context names one, unless it names a jwt-bearer grant (a workload
 * JWT, an ID token), which names no authorization-code client.
 */
export class AppProvider {
  constructor(context, clientName) {
    this.clientName = clientName;
    this.info =
      context.client_id && !(context.valid_jwt || context.idp_id_token)
        ? { client_id: context.client_id, client_secret: context.client_secret }
        : undefined;
    this.clientMetadataUrl = 'https://app.example/oauth/client-metadata.json';
  }
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: this.clientName,
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
  /**
   * What discovery found (the resource metadata URL the 401 named, the authorization server), kept for the callback
   * leg as the code verifier is: the app's auth() call reads it, then drops it (see authorized()).
   */
  saveDiscoveryState(s) {
    this.discovery = s;
  }
  discoveryState() {
    return this.discovery;
  }
  invalidateCredentials(scope) {
    if (scope === 'all' || scope === 'client') this.info = undefined;
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }
  state() {
    this.sent = crypto.randomUUID();
    return this.sent;
  }
  /** The user's browser: the authorization endpoint redirects to the callback, whose code, state and iss are kept. */
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
