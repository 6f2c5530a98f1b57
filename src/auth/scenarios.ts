// The authorization scenarios a client runs against (the official names, and a few of the project's own): what the
// protected resource and the authorization server serve, and what a conformant client does there.
import type { Scenario } from '../transport/test-server/scenario.js';
import { JWT_CLIENT_ID, jwtKeys } from './jwt-assertion.js';

/** Where the authorization server's metadata is served (RFC 8414 §3.1; OpenID Connect Discovery; §5 of RFC 8414). */
export type AsMetadataAt = 'oauth' | 'openid' | 'openid-appended' | 'none';

/** How the authorization response treats `iss` (RFC 9207). */
export type IssMode = 'sent' | 'not-advertised' | 'missing' | 'wrong' | 'unexpected' | 'normalized';

export interface AuthScenario {
  name: string;
  /**
   * Core scenarios make the verdict; extensions (optional by definition: SEP-1730) are reported beside it, as drafts
   * would be (behaviour no released revision asks for yet; none now: the iss, migration and offline-access scenarios
   * are rules of 2026-07-28 and run at it alone).
   */
  tier: 'core' | 'draft' | 'extension';
  description: string;
  /** The resource metadata's path on the MCP server's origin; undefined: none (2025-03-26). */
  prm?: string;
  /** Whether the 401's challenge names `resource_metadata`. */
  prmInChallenge: boolean;
  /** The issuer's path ('' or '/tenant1'). */
  issuerPath: string;
  asMetadata: AsMetadataAt;
  /** The MCP server's origin is the authorization server (2025-03-26 without resource metadata). */
  asOnResource?: boolean;
  /** `scope` in the 401 challenge. */
  challengeScope?: string;
  /** `scopes_supported` in the resource metadata. */
  scopesSupported?: string[];
  /** `scopes_supported` in the authorization server's metadata. */
  asScopes?: string[];
  /** tools/call needs this scope: without it, 403 insufficient_scope naming it alone. */
  stepUp?: string;
  /** Every authorized request past initialization is refused with 403 insufficient_scope and the 401's scope. */
  alwaysForbidden?: boolean;
  /** `token_endpoint_auth_methods_supported`. */
  authMethods: string[];
  dcr: boolean;
  cimd: boolean;
  /** Client credentials given in MCP_CONFORMANCE_CONTEXT (no registration endpoint). */
  preRegistered?: boolean;
  /** The resource metadata names another resource. */
  resourceMismatch?: boolean;
  /**
   * The resource metadata at the root names the origin: the identifier the well-known suffix is inserted into (RFC 9728
   * §3.1) is then the bare origin, the value a URL parser rewrites with a trailing slash.
   */
  originResource?: boolean;
  iss?: IssMode;
  /** The authorization server's metadata names another issuer. */
  issuerMismatch?: boolean;
  /** The metadata leaves out code_challenge_methods_supported. */
  noPkce?: boolean;
  /** The authorization response carries another state than the one sent. */
  wrongState?: boolean;
  /** offline_access and the refresh_token grant are offered, and the first access token expires after its first use. */
  offlineAccess?: 'supported' | 'unsupported';
  /** The client authenticates with a JWT signed by the key MCP_CONFORMANCE_CONTEXT gives (private_key_jwt). */
  jwt?: boolean;
  /**
   * Grant the client runs: authorization_code (default), client_credentials, or jwt-bearer (RFC 7523 §2.1) with the
   * workload JWT the context gives (workload identity federation) or, with `enterprise`, with an identity assertion
   * authorization grant (ID-JAG) it gets from the identity provider by token exchange (RFC 8693).
   */
  grant?: 'client_credentials' | 'jwt-bearer';
  /** Enterprise-managed authorization: an identity provider beside the authorization server (SEP-990). */
  enterprise?: boolean;
  /**
   * Sender-constrained tokens (RFC 9449, the DPoP extension, SEP-1932): proofs at the token endpoint and the MCP
   * endpoint; with `nonce` both servers challenge the first proof with use_dpop_nonce (§8, §9).
   */
  dpop?: 'plain' | 'nonce';
  /** After the first authorized request the resource metadata names a second authorization server (SEP-2352). */
  migrate?: boolean;
  /** What a conformant client does: gets a token and uses it, or stops before it sends one. */
  outcome: 'connect' | 'refuse';
  /**
   * The revisions it runs at (MCP_CONFORMANCE_PROTOCOL_VERSION), each a run of its own: those the official frozen sets
   * (requirements/<revision>.yaml) list it under, else those whose rules it judges.
   */
  revisions: readonly string[];
}

export const PRE_REGISTERED = {
  client_id: 'mcp-conformance-preregistered',
  client_secret: 'preregistered-secret-5b1c',
};
export const CLIENT_CREDENTIALS = { client_id: 'mcp-conformance-service', client_secret: 'service-secret-9e2d' };
/** The workload of auth/wif-jwt-bearer, and the enterprise client and its identity provider client of EMA. */
export const WIF_CLIENT_ID = 'mcp-conformance-workload';
export const ENTERPRISE = {
  client_id: 'mcp-conformance-enterprise-client',
  client_secret: 'enterprise-secret-71c4',
  idp_client_id: 'mcp-conformance-idp-client',
};

const PRM = '/.well-known/oauth-protected-resource/mcp';
/** The revisions of the official frozen sets: a scenario both list runs at each, with the lifecycle of each. */
const BOTH = ['2025-11-25', '2026-07-28'] as const;
/** Rules that first appear in 2026-07-28 (RFC 9207 iss: SEP-2468; migration: SEP-2352; offline access: SEP-2207). */
const STATELESS_ONLY = ['2026-07-28'] as const;
const base = {
  tier: 'core',
  prm: PRM,
  prmInChallenge: true,
  issuerPath: '',
  asMetadata: 'oauth',
  authMethods: ['client_secret_basic', 'client_secret_post', 'none'],
  dcr: true,
  cimd: false,
  outcome: 'connect',
  revisions: BOTH,
} as const satisfies Partial<AuthScenario>;

type Row = Omit<AuthScenario, keyof typeof base> & Partial<AuthScenario>;
const s = (row: Row): AuthScenario => ({ ...base, authMethods: [...base.authMethods], ...row });

export const SCENARIOS: readonly AuthScenario[] = [
  s({
    name: 'auth/metadata-default',
    description: 'Metadata at the path-suffixed well-known URIs, named in the challenge',
  }),
  s({
    name: 'auth/metadata-var1',
    description: 'No resource_metadata in the challenge; OpenID Connect discovery only',
    prmInChallenge: false,
    asMetadata: 'openid',
  }),
  s({
    name: 'auth/metadata-var2',
    description:
      'Resource metadata at the root well-known URI only, naming the origin as the resource; an issuer with a path (RFC 8414 path insertion)',
    prm: '/.well-known/oauth-protected-resource',
    prmInChallenge: false,
    originResource: true,
    issuerPath: '/tenant1',
  }),
  s({
    name: 'auth/metadata-var3',
    description: 'Resource metadata at a custom URL the challenge names; OpenID metadata appended to an issuer path',
    prm: '/custom/metadata/location.json',
    issuerPath: '/tenant1',
    asMetadata: 'openid-appended',
  }),
  s({
    name: 'auth/basic-cimd',
    description: 'The server supports client ID metadata documents: the client uses its document URL as client_id',
    cimd: true,
    authMethods: ['none'],
  }),
  s({ name: 'auth/basic-dcr', description: 'Dynamic client registration only', authMethods: ['none'] }),
  s({
    name: 'auth/pre-registration',
    description: 'No registration endpoint; credentials in MCP_CONFORMANCE_CONTEXT, client_secret_basic',
    dcr: false,
    preRegistered: true,
    authMethods: ['client_secret_basic'],
  }),
  s({
    name: 'auth/scope-from-www-authenticate',
    description: 'The challenge names a scope: the client asks for it',
    challengeScope: 'mcp:basic',
    scopesSupported: ['mcp:read', 'mcp:write'],
  }),
  s({
    name: 'auth/scope-from-scopes-supported',
    description: 'No scope in the challenge: the client asks for every scope in scopes_supported',
    scopesSupported: ['mcp:basic', 'mcp:read'],
  }),
  s({
    name: 'auth/scope-omitted-when-undefined',
    description: 'Neither a challenge scope nor scopes_supported: the client sends no scope',
  }),
  s({
    name: 'auth/scope-step-up',
    description:
      'tools/call needs mcp:write: 403 insufficient_scope naming it alone, then a new authorization asking for it and (2026-07-28) the scope granted before',
    challengeScope: 'mcp:basic',
    // Neither challenged scope: scopes_supported does not hand a client the union (as the official scenario).
    scopesSupported: ['mcp:profile'],
    stepUp: 'mcp:write',
  }),
  s({
    name: 'auth/scope-retry-limit',
    description:
      'Every authorized request past initialization is refused with 403 insufficient_scope naming the scope of the 401: the client stops after at most 3 authorizations',
    challengeScope: 'mcp:admin',
    scopesSupported: ['mcp:admin'],
    alwaysForbidden: true,
  }),
  s({
    name: 'auth/token-endpoint-auth-basic',
    description: 'The server supports client_secret_basic only',
    authMethods: ['client_secret_basic'],
  }),
  s({
    name: 'auth/token-endpoint-auth-post',
    description: 'The server supports client_secret_post only',
    authMethods: ['client_secret_post'],
  }),
  s({
    name: 'auth/token-endpoint-auth-none',
    description: 'The server supports public clients only (none)',
    authMethods: ['none'],
  }),
  s({
    name: 'auth/2025-03-26-oauth-metadata-backcompat',
    description: '2025-03-26: no resource metadata; the authorization server metadata at the MCP server root',
    prm: undefined,
    prmInChallenge: false,
    asOnResource: true,
    revisions: ['2025-03-26'],
  }),
  s({
    name: 'auth/2025-03-26-oauth-endpoint-fallback',
    description: '2025-03-26: no metadata at all; /authorize, /token and /register at the MCP server root',
    prm: undefined,
    prmInChallenge: false,
    asOnResource: true,
    asMetadata: 'none',
    revisions: ['2025-03-26'],
  }),
  s({
    name: 'auth/resource-mismatch',
    description: 'The resource metadata names another resource: the client stops',
    resourceMismatch: true,
    outcome: 'refuse',
  }),
  s({
    name: 'auth/metadata-issuer-mismatch',
    description: "The authorization server's metadata names another issuer: the client stops",
    issuerMismatch: true,
    outcome: 'refuse',
  }),
  s({
    name: 'auth/iss-supported',
    revisions: STATELESS_ONLY,
    description: 'iss advertised and sent: the client accepts it',
    iss: 'sent',
  }),
  s({
    name: 'auth/iss-not-advertised',
    revisions: STATELESS_ONLY,
    description: 'iss neither advertised nor sent',
    iss: 'not-advertised',
  }),
  s({
    name: 'auth/iss-supported-missing',
    revisions: STATELESS_ONLY,
    description: 'iss advertised but left out of the redirect: the client rejects it',
    iss: 'missing',
    outcome: 'refuse',
  }),
  s({
    name: 'auth/iss-wrong-issuer',
    revisions: STATELESS_ONLY,
    description: 'iss names another issuer: the client rejects it',
    iss: 'wrong',
    outcome: 'refuse',
  }),
  s({
    name: 'auth/iss-unexpected',
    revisions: STATELESS_ONLY,
    description: 'iss not advertised, but sent with another issuer: the client rejects it',
    iss: 'unexpected',
    outcome: 'refuse',
  }),
  s({
    name: 'auth/iss-normalized',
    revisions: STATELESS_ONLY,
    description: 'iss equal to the issuer only after URL normalization: simple string comparison rejects it',
    iss: 'normalized',
    outcome: 'refuse',
  }),
  s({
    name: 'auth/authorization-server-migration',
    revisions: STATELESS_ONLY,
    description:
      "After the first authorized request the resource metadata names another authorization server and the first one's tokens are refused: the client registers with the new one",
    challengeScope: 'mcp:basic',
    migrate: true,
  }),
  s({
    name: 'auth/offline-access-scope',
    revisions: STATELESS_ONLY,
    description: 'offline_access and refresh_token offered; the first access token expires after one use',
    // The resource metadata leaves offline_access out (SEP-2207: a resource server SHOULD NOT list it); the
    // authorization server's metadata offers it.
    scopesSupported: ['mcp:basic'],
    asScopes: ['mcp:basic', 'offline_access'],
    offlineAccess: 'supported',
  }),
  s({
    name: 'auth/offline-access-not-supported',
    revisions: STATELESS_ONLY,
    description: 'offline_access is not offered: the client does not ask for it',
    scopesSupported: ['mcp:basic'],
    asScopes: ['mcp:basic'],
    offlineAccess: 'unsupported',
  }),
  s({
    name: 'auth/pkce-not-advertised',
    description:
      "The metadata has no code_challenge_methods_supported: the client refuses to proceed (the project's own)",
    noPkce: true,
    outcome: 'refuse',
  }),
  s({
    name: 'auth/state-mismatch',
    description: "The authorization response carries another state: the client discards it (the project's own)",
    wrongState: true,
    outcome: 'refuse',
  }),
  s({
    name: 'auth/client-credentials-basic',
    tier: 'extension',
    description: 'client_credentials grant with client_secret_basic; credentials in MCP_CONFORMANCE_CONTEXT',
    grant: 'client_credentials',
    dcr: false,
    authMethods: ['client_secret_basic'],
  }),
  s({
    name: 'auth/client-credentials-jwt',
    tier: 'extension',
    description:
      'client_credentials grant with private_key_jwt (ES256); the client_id and the private key in MCP_CONFORMANCE_CONTEXT',
    grant: 'client_credentials',
    jwt: true,
    dcr: false,
    authMethods: ['private_key_jwt'],
  }),
  s({
    name: 'auth/dpop',
    tier: 'extension',
    description:
      'DPoP-bound tokens required (RFC 9449): a proof at the token endpoint, then the DPoP scheme and a fresh proof on every MCP request',
    dpop: 'plain',
  }),
  s({
    name: 'auth/dpop-nonce',
    tier: 'extension',
    description:
      'As auth/dpop, and both the token endpoint and the MCP endpoint answer the first proof with use_dpop_nonce and a DPoP-Nonce to use',
    dpop: 'nonce',
  }),
  s({
    name: 'auth/wif-jwt-bearer',
    tier: 'extension',
    description:
      "Workload identity federation: the jwt-bearer grant (RFC 7523 §2.1) with the workload's JWT MCP_CONFORMANCE_CONTEXT gives, no browser",
    grant: 'jwt-bearer',
    dcr: false,
    authMethods: ['none'],
  }),
  s({
    name: 'auth/enterprise-managed-authorization',
    tier: 'extension',
    description:
      "Enterprise-managed authorization: the ID token the context gives is exchanged at the identity provider for an ID-JAG (RFC 8693), which the client presents to the authorization server's token endpoint as a jwt-bearer grant",
    grant: 'jwt-bearer',
    enterprise: true,
    dcr: false,
    authMethods: ['client_secret_basic'],
  }),
];

export function scenarioNamed(name: string): AuthScenario | undefined {
  return SCENARIOS.find((sc) => sc.name === name);
}

/** What MCP_CONFORMANCE_CONTEXT carries for a scenario (the official contract: `{name, …}`). */
export function contextOf(sc: AuthScenario): Record<string, unknown> | undefined {
  if (sc.jwt)
    return {
      name: sc.name,
      client_id: JWT_CLIENT_ID,
      private_key_pem: jwtKeys().privatePem,
      signing_algorithm: 'ES256',
    };
  if (sc.enterprise) return { name: sc.name, ...ENTERPRISE };
  if (sc.grant === 'jwt-bearer') return { name: sc.name, client_id: WIF_CLIENT_ID };
  if (sc.grant === 'client_credentials') return { name: sc.name, ...CLIENT_CREDENTIALS };
  if (sc.preRegistered) return { name: sc.name, ...PRE_REGISTERED };
  return undefined;
}

/** The MCP side of an authorization scenario, as the client run's test server serves it behind the rig's gate. */
export function mcpScenarioOf(sc: AuthScenario): Scenario {
  return {
    name: sc.name,
    description: sc.description,
    revisions: sc.revisions,
    context: contextOf(sc) ?? {},
    tools: [
      {
        name: 'echo',
        description: 'Answers a fixed text',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
        does: 'text',
      },
      // The tool the official suite's authorization scenarios serve, which its example clients call by name.
      {
        name: 'test-tool',
        description: 'Answers a fixed text',
        inputSchema: { type: 'object', properties: {} },
        does: 'text',
      },
    ],
    asks:
      sc.outcome === 'connect' ? 'authorize, then initialize, list the tools and call one' : 'stop before authorizing',
  };
}
