// The authorization server as MCP clients need it (`mcp-conformance authorization --url ISSUER`): each check reads the
// record the probe made (record.ts) and says which clients break when it fails.
import { decodeJwt } from 'jose';
import { type Outcome, fail, pass, skip, warn } from '../kit/check.js';
import { requirement } from '../kit/requirement.js';
import type { Answer, AuthzCheckDef, AuthzRecord, Round } from './record.js';

const MCP_AUTH = (anchor: string) =>
  `https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#${anchor}`;
const OAUTH21 = (section: string) =>
  `https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-${section}`;

/** `POST http://…/token → 400 invalid_grant`, for messages. */
export function said(a: Answer): string {
  const error = typeof a.json?.error === 'string' ? ` ${a.json.error}` : '';
  return `${a.method} ${a.url} → ${typeof a.status === 'number' ? `HTTP ${a.status}` : a.status}${error}`;
}

const issuedToken = (a?: Answer) => a !== undefined && a.status === 200 && typeof a.json?.access_token === 'string';

/** Skips a check that needs the rounds when they did not run, with the reason. */
function withRound(r: AuthzRecord, round: Round | undefined, judge: (round: Round) => Outcome): Outcome {
  if (!round) return skip(r.noRounds ?? 'the authorization code rounds did not run');
  if (!round.authorized.redirect) return skip(`the authorization request did not come back: ${round.authorized.stuck}`);
  return judge(round);
}

/** The verdict on a token request made with a broken PKCE verifier: refused, or a token issued. */
function refusesVerifier(r: AuthzRecord, round: Round | undefined, what: string): Outcome {
  return withRound(r, round, ({ authorized, token }) => {
    if (!token) return skip(`the authorization request gave no code (${authorized.redirect?.search})`);
    if (!issuedToken(token)) return pass(`a token request ${what} → ${said(token)}`);
    return fail(`a token request ${what} got an access token: ${said(token)}`, {
      expected: 'the token request refused (RFC 6749 §5.2: 400 invalid_grant)',
      actual: { status: token.status, body: token.json },
    });
  });
}

/** The client metadata RFC 7591 §2 defines, of those the suite registers. */
const RFC7591_FIELDS = ['redirect_uris', 'token_endpoint_auth_method', 'grant_types', 'response_types', 'client_name'];

/** The authorization responses the rounds got back (redirects to the redirect_uri), the refused ones too. */
const authorizationResponses = (r: AuthzRecord): URL[] =>
  Object.values(r.rounds).flatMap((round) => (round?.authorized.redirect ? [round.authorized.redirect] : []));

export const AUTHZ_CHECKS: AuthzCheckDef[] = [
  {
    id: 'authz/metadata/discovery',
    title: 'The metadata is at a location MCP clients try',
    requirement: requirement(
      'authz.metadata.discovery',
      'MUST',
      MCP_AUTH('authorization-server-metadata-discovery'),
      '"MCP authorization servers MUST provide at least one of the following discovery mechanisms:" followed by the list "OAuth 2.0 Authorization Server Metadata (RFC8414)", "OpenID Connect Discovery 1.0"',
    ),
    breaks: 'every MCP client: none finds the authorization and token endpoints',
    judge: (r) => {
      const tried = r.discovery.map(said);
      if (r.metadataUrl) return pass(`metadata at ${r.metadataUrl} (tried in MCP client order: ${tried.join('; ')})`);
      return fail(`no location MCP clients try served JSON metadata: ${tried.join('; ')}`, {
        expected: 'HTTP 200 with JSON metadata at one of the locations',
        actual: r.discovery.map((a) => ({ url: a.url, status: a.status, contentType: a.contentType ?? null })),
      });
    },
  },
  {
    id: 'authz/metadata/issuer',
    title: 'The metadata names the issuer it was fetched for',
    requirement: requirement(
      'authz.metadata.issuer',
      'MUST',
      'https://datatracker.ietf.org/doc/html/rfc8414#section-3.3',
      'RFC 8414 §3.3: "The "issuer" value returned MUST be identical to the authorization server\'s issuer identifier value into which the well-known URI string was inserted to create the URL used to retrieve the metadata."',
    ),
    breaks:
      'MCP clients that compare the issuer (RFC 8414 §3.3 says they MUST NOT use the metadata then) stop before authorizing',
    judge: (r) => {
      if (!r.metadata) return skip('no metadata (authz/metadata/discovery judges that)');
      const issuer = r.metadata.issuer;
      if (issuer === r.issuer) return pass(`issuer ${JSON.stringify(issuer)} at ${r.metadataUrl}`);
      return fail(
        `${r.metadataUrl} names issuer ${JSON.stringify(issuer ?? null)}, fetched for ${JSON.stringify(r.issuer)}`,
        {
          expected: { issuer: r.issuer },
          actual: { issuer: issuer ?? null },
        },
      );
    },
  },
  {
    id: 'authz/metadata/pkce-s256',
    title: 'The metadata lists the S256 code challenge method',
    requirement: requirement(
      'authz.metadata.pkce-s256',
      'MUST',
      MCP_AUTH('authorization-code-protection'),
      '"Authorization servers providing OpenID Connect Discovery 1.0 MUST include code_challenge_methods_supported in their metadata to ensure MCP compatibility"; "If code_challenge_methods_supported is absent, the authorization server does not support PKCE and MCP clients MUST refuse to proceed"; "MCP clients MUST use the S256 code challenge method when technically capable"',
    ),
    breaks: 'every MCP client of 2025-11-25 on: they MUST refuse to proceed without it',
    judge: (r) => {
      if (!r.metadata) return skip('no metadata (authz/metadata/discovery judges that)');
      const methods = r.metadata.code_challenge_methods_supported;
      if (Array.isArray(methods) && methods.includes('S256'))
        return pass(`code_challenge_methods_supported: ${JSON.stringify(methods)}`);
      return fail(
        methods === undefined
          ? 'the metadata has no code_challenge_methods_supported'
          : `code_challenge_methods_supported ${JSON.stringify(methods)} has no S256`,
        {
          expected: { code_challenge_methods_supported: ['S256'] },
          actual: { code_challenge_methods_supported: methods ?? null },
        },
      );
    },
  },
  {
    id: 'authz/registration/response',
    title: 'Dynamic registration answers 201 with the client it registered',
    requirement: requirement(
      'authz.registration.response',
      'MUST',
      'https://datatracker.ietf.org/doc/html/rfc7591#section-3.2',
      'RFC 7591 §3.2: "The server responds with an HTTP 201 Created status code and a body of type "application/json" with content as described in Section 3.2.1."; §3.2.1, client_id: "REQUIRED. OAuth 2.0 client identifier string."',
    ),
    breaks:
      'MCP clients without a pre-registered client or a client ID metadata document: they register and get no client',
    judge: (r) => {
      if (!r.metadata) return skip('no metadata (authz/metadata/discovery judges that)');
      const a = r.registration;
      if (!a) return skip('the metadata offers no registration_endpoint (dynamic registration is a MAY)');
      const problems = [
        ...(a.status === 201 ? [] : [`HTTP ${a.status}, not 201`]),
        ...(typeof a.json?.client_id === 'string' ? [] : ['no client_id']),
        ...(/application\/json/i.test(a.contentType ?? '') ? [] : [`Content-Type ${a.contentType ?? 'none'}`]),
      ];
      if (problems.length === 0)
        return pass(
          `${said(a)}: client_id, token_endpoint_auth_method ${JSON.stringify(a.json?.token_endpoint_auth_method ?? 'client_secret_basic (absent)')}, application_type ${JSON.stringify(a.json?.application_type ?? null)}`,
        );
      return fail(`${said(a)}: ${problems.join(', ')}`, {
        expected: 'HTTP 201, application/json, with client_id',
        actual: { status: a.status, contentType: a.contentType ?? null, body: a.json ?? null },
      });
    },
  },
  {
    id: 'authz/registration/metadata',
    title: 'The registration response returns the metadata the client registered',
    requirement: requirement(
      'authz.registration.metadata',
      'MUST',
      'https://datatracker.ietf.org/doc/html/rfc7591#section-3.2.1',
      'RFC 7591 §3.2.1: "Additionally, the authorization server MUST return all registered metadata about this client, including any fields provisioned by the authorization server itself."',
    ),
    breaks:
      'MCP clients that read the registered token_endpoint_auth_method or redirect_uris from the response: they guess what was registered',
    judge: (r) => {
      const a = r.registration;
      if (!a?.json || typeof a.json.client_id !== 'string')
        return skip('no client was registered (authz/registration/response judges that)');
      // The RFC 7591 §2 fields the suite sent; the server MAY substitute values, not leave them out. application_type is
      // OpenID Connect's, which a plain RFC 7591 server ignores (RFC 7591 §2), so it is not asked for.
      const sent = Object.keys(a.sent ?? {}).filter((k) => RFC7591_FIELDS.includes(k));
      const missing = sent.filter((k) => a.json?.[k] === undefined);
      if (missing.length === 0) return pass(`the registration response has ${sent.join(', ')}`);
      return fail(`the registration response leaves out ${missing.join(', ')}, registered with the client`, {
        expected: Object.fromEntries(sent.map((k) => [k, a.sent?.[k]])),
        actual: Object.fromEntries(sent.map((k) => [k, a.json?.[k] ?? null])),
      });
    },
  },
  {
    id: 'authz/registration/cimd',
    title: 'Client ID metadata documents are supported, and a client_id URL is accepted',
    requirement: requirement(
      'authz.registration.cimd',
      'SHOULD',
      MCP_AUTH('client-id-metadata-documents'),
      '"MCP clients and authorization servers SHOULD support OAuth Client ID Metadata Documents"; its implementation requirements for authorization servers: "SHOULD fetch metadata documents when encountering URL-formatted client_ids"',
    ),
    breaks:
      'MCP clients with no prior relationship to the server (the common case) fall back to dynamic registration, or cannot proceed without it',
    judge: (r) => {
      if (!r.metadata) return skip('no metadata (authz/metadata/discovery judges that)');
      if (r.metadata.client_id_metadata_document_supported !== true)
        return warn(
          `the metadata has client_id_metadata_document_supported ${JSON.stringify(r.metadata.client_id_metadata_document_supported ?? null)}, not true`,
          {
            expected: { client_id_metadata_document_supported: true },
            actual: { client_id_metadata_document_supported: r.metadata.client_id_metadata_document_supported ?? null },
          },
        );
      const round = r.rounds.cimd;
      if (!round) return pass(`advertised; the document's flow was not tried: ${r.noCimd ?? r.noRounds}`);
      const q = round.authorized.redirect?.searchParams;
      if (q?.get('code'))
        return pass('advertised, and an authorization request with the document URL as client_id got a code');
      return warn(
        `advertised, but an authorization request with the document URL as client_id got ${q ? `error ${q.get('error')}` : `no answer: ${round.authorized.stuck}`}`,
        { expected: 'a code', actual: q ? Object.fromEntries(q) : round.authorized.stuck },
      );
    },
  },
  {
    id: 'authz/code/token',
    title: 'The authorization code grant with PKCE S256 and a resource gives a token',
    requirement: requirement(
      'authz.code.token',
      'MUST',
      OAUTH21('3.2.3'),
      'MCP: "Authorization servers MUST implement OAuth 2.1 with appropriate security measures for both confidential and public clients"; OAuth 2.1 §3.2.3: "The authorization server MUST include the HTTP Cache-Control response header field (see Section 5.2 of [RFC9111]) with a value of no-store in any response containing tokens, credentials, or other sensitive information."; access_token and token_type REQUIRED',
    ),
    breaks: 'every MCP client: the flow they all run ends without a token',
    judge: (r) =>
      withRound(r, r.rounds.good, ({ authorized, token }) => {
        if (!token)
          return fail(
            `the authorization response has no code: ${authorized.redirect?.search}${r.scope ? '' : ' (no scope was asked for: --scope names one)'}`,
            {
              expected: 'a redirect to the redirect_uri with code',
              actual: Object.fromEntries(authorized.redirect?.searchParams ?? []),
            },
          );
        const problems = [
          ...(token.status === 200 ? [] : [`HTTP ${token.status}`]),
          ...(typeof token.json?.access_token === 'string' ? [] : ['no access_token']),
          ...(typeof token.json?.token_type === 'string' ? [] : ['no token_type']),
          ...(/no-store/i.test(token.cacheControl ?? '') ? [] : [`Cache-Control ${token.cacheControl ?? 'absent'}`]),
        ];
        if (problems.length === 0) return pass(`${said(token)} with access_token, token_type, Cache-Control: no-store`);
        return fail(`${said(token)}: ${problems.join(', ')}`, {
          expected: 'HTTP 200, access_token, token_type, Cache-Control: no-store',
          actual: { status: token.status, cacheControl: token.cacheControl ?? null, body: token.json ?? null },
        });
      }),
  },
  {
    id: 'authz/authorize/iss',
    title: 'Where the metadata says so, every authorization response carries iss, the issuer',
    requirement: requirement(
      'authz.authorize.iss',
      'MUST',
      'https://datatracker.ietf.org/doc/html/rfc9207#section-2',
      'RFC 9207 §2: "In authorization responses to the client, including error responses, an authorization server supporting this specification MUST indicate its identity by including the iss parameter in the response"; §2.3: "The issuer identifier included in the server\'s metadata value issuer MUST be identical to the iss parameter\'s value"; "The server MUST indicate its support for the iss parameter by setting the metadata parameter authorization_response_iss_parameter_supported … to true"',
    ),
    breaks:
      'MCP clients of 2026-07-28 reject an authorization response whose iss is missing where advertised, wrong, or not advertised',
    judge: (r) => {
      const responses = authorizationResponses(r);
      if (responses.length === 0) return skip(r.noRounds ?? 'no authorization response came back');
      const supported = r.metadata?.authorization_response_iss_parameter_supported === true;
      const wrong = responses.flatMap((u) => {
        const iss = u.searchParams.getAll('iss');
        const what = u.searchParams.has('error')
          ? `the error response (${u.searchParams.get('error')})`
          : 'the response with a code';
        if (!supported)
          return iss.length ? [`${what} has iss ${JSON.stringify(iss[0])} but the metadata does not advertise it`] : [];
        if (iss.length === 0) return [`${what} has no iss`];
        return iss.length === 1 && iss[0] === r.issuer
          ? []
          : [`${what} has iss ${JSON.stringify(iss.join(', '))}, not ${JSON.stringify(r.issuer)}`];
      });
      if (wrong.length)
        return fail(wrong.join('; '), { expected: supported ? { iss: r.issuer } : 'no iss', actual: wrong });
      return supported
        ? pass(`${responses.length} authorization responses, each with iss ${JSON.stringify(r.issuer)}`)
        : pass('the metadata does not advertise iss and no response carries it');
    },
  },
  {
    id: 'authz/authorize/iss-included',
    title: 'Every authorization response carries iss (RFC 9207), errors too',
    requirement: requirement(
      'authz.authorize.iss-included',
      'SHOULD',
      MCP_AUTH('authorization-response-validation'),
      'MCP: "MCP authorization servers SHOULD include the iss parameter in authorization responses, including error responses, as defined in RFC9207 Section 2."',
    ),
    breaks:
      'no client today; MCP clients cannot tell a mix-up attack from this server, and a future revision is expected to make iss a MUST',
    judge: (r) => {
      const responses = authorizationResponses(r);
      if (responses.length === 0) return skip(r.noRounds ?? 'no authorization response came back');
      const without = responses.filter((u) => !u.searchParams.has('iss'));
      if (without.length === 0) return pass(`${responses.length} authorization responses, each with iss`);
      // Advertised and missing breaks a MUST: authz/authorize/iss fails it, once.
      if (r.metadata?.authorization_response_iss_parameter_supported === true)
        return skip('the metadata advertises iss: authz/authorize/iss judges a response without it');
      const what = without.map((u) =>
        u.searchParams.has('error') ? `the error (${u.searchParams.get('error')})` : 'the code',
      );
      return warn(`${without.length} of ${responses.length} authorization responses carry no iss: ${what.join(', ')}`, {
        expected: { iss: r.issuer },
        // The parameters' names only: a code is a credential.
        actual: without.map((u) => [...u.searchParams.keys()]),
      });
    },
  },
  {
    id: 'authz/pkce/required',
    title: 'An authorization request without code_challenge is refused',
    requirement: requirement(
      'authz.pkce.required',
      'MUST',
      OAUTH21('4.1.1'),
      'OAuth 2.1 §4.1.1: "Clients MUST use code_challenge and code_verifier and authorization servers MUST enforce their use except under the conditions described in Section 7.5.1."; §4.1.2.1: "An AS MUST reject requests without a code_challenge from public clients, and MUST reject such requests from other clients unless there is reasonable assurance that the client mitigates authorization code injection in other ways."',
    ),
    breaks: 'no client fails; any code intercepted from a client that forgets PKCE can be redeemed',
    judge: (r) =>
      withRound(r, r.rounds.noChallenge, ({ authorized }) => {
        const q = authorized.redirect?.searchParams;
        if (!q?.get('code')) return pass(`refused: ${q?.get('error') ?? 'no code'} at the redirect_uri`);
        return fail('an authorization request of a public client without code_challenge got a code', {
          expected: 'error=invalid_request at the redirect_uri',
          actual: Object.fromEntries([...(q ?? [])].map(([k, v]) => [k, k === 'code' ? '***' : v])),
        });
      }),
  },
  {
    id: 'authz/pkce/verifier',
    title: 'A token request with a missing, wrong or plain code_verifier is refused',
    requirement: requirement(
      'authz.pkce.verifier',
      'MUST',
      OAUTH21('4.1.3'),
      'OAuth 2.1 §4.1.3, the authorization server MUST: "verify that the code_verifier parameter is present if and only if a code_challenge parameter was present in the authorization request"; "if a code_verifier is present, verify the code_verifier by calculating the code challenge from the received code_verifier and comparing it with the previously associated code_challenge, after first transforming it according to the code_challenge_method method specified by the client"',
    ),
    breaks: 'no client fails; a stolen code is redeemed without its verifier (the attack PKCE is there for)',
    judge: (r) => {
      const outcomes = [
        refusesVerifier(r, r.rounds.missingVerifier, 'without code_verifier'),
        refusesVerifier(r, r.rounds.wrongVerifier, 'with another code_verifier'),
        refusesVerifier(r, r.rounds.plainVerifier, 'with the S256 challenge itself as code_verifier (plain)'),
      ];
      const failed = outcomes.filter((o) => o.status === 'fail');
      if (failed.length) return { ...failed[0], message: failed.map((o) => o.message).join('; ') };
      return outcomes.every((o) => o.status === 'skip') ? outcomes[0] : pass(outcomes.map((o) => o.message).join('; '));
    },
  },
  {
    id: 'authz/resource/audience',
    title: 'The token is for the resource the client asked for',
    requirement: requirement(
      'authz.resource.audience',
      'SHOULD',
      'https://www.rfc-editor.org/rfc/rfc8707#section-2',
      'RFC 8707 §2: "The authorization server SHOULD audience-restrict issued access tokens to the resource(s) indicated by the resource parameter."; MCP: "RFC 8707 Resource Indicators provide critical security benefits by binding tokens to their intended audiences when the Authorization Server supports the capability."',
    ),
    breaks:
      'MCP servers that validate the audience (as they MUST) refuse the token: the client authorizes and is still refused',
    judge: (r) =>
      withRound(r, r.rounds.good, ({ token }) => {
        if (!issuedToken(token)) return skip('no token was issued (authz/code/token judges that)');
        let aud: unknown;
        try {
          aud = decodeJwt(String(token?.json?.access_token)).aud;
        } catch {
          return skip('the access token is not a JWT: its audience cannot be read here (introspection is not done)');
        }
        const auds = Array.isArray(aud) ? aud : [aud];
        if (auds.includes(r.resource)) return pass(`aud ${JSON.stringify(aud)} includes resource ${r.resource}`);
        return warn(`a token asked for resource ${r.resource} has aud ${JSON.stringify(aud ?? null)}`, {
          expected: { aud: r.resource },
          actual: { aud: aud ?? null },
        });
      }),
  },
  {
    id: 'authz/token/refresh-rotation',
    title: 'A refresh token of a public client works once and is replaced',
    requirement: requirement(
      'authz.token.refresh-rotation',
      'MUST',
      MCP_AUTH('token-theft'),
      '"For public clients, authorization servers MUST rotate refresh tokens as described in OAuth 2.1 Section 4.3.1 "Token Endpoint Extension"."; OAuth 2.1 §4.3.1: "Authorization servers MUST utilize one of these methods to detect refresh token replay by malicious actors for public clients"; its refresh token rotation: "The previous refresh token is invalidated but information about the relationship is retained by the authorization server."',
    ),
    breaks: 'no client fails; a leaked refresh token of a public MCP client stays usable for as long as it lives',
    judge: (r) => {
      const a = r.refresh;
      if (!a) return skip(r.noRounds ?? 'the token response had no refresh_token (issuing one is optional)');
      const old = r.rounds.good?.token?.json?.refresh_token;
      if (!issuedToken(a))
        return fail(`the refresh grant with the refresh token just issued: ${said(a)}`, {
          expected: 'HTTP 200 with a new access_token',
          actual: { status: a.status, body: a.json ?? null },
        });
      if (r.client?.authMethod !== 'none') return pass(`${said(a)} (a confidential client: rotation is not required)`);
      const fresh = a.json?.refresh_token;
      const reuse = r.refreshReuse;
      if (reuse && issuedToken(reuse))
        return fail(`the replaced refresh token, used again, still got an access token: ${said(reuse)}`, {
          expected: 'the replaced refresh token refused (400 invalid_grant)',
          actual: { status: reuse.status, body: reuse.json ?? null },
        });
      if (typeof fresh === 'string' && fresh !== old)
        return pass(
          `${said(a)} with a new refresh_token${reuse ? `; the replaced one, used again → ${said(reuse)}` : ''}`,
        );
      return fail(
        `the refresh grant of a public client ${fresh === undefined ? 'gave no new refresh_token' : 'gave the same refresh_token back'}`,
        {
          expected: 'a new refresh_token',
          actual: { refresh_token: fresh === undefined ? null : 'the same one' },
        },
      );
    },
  },
  {
    id: 'authz/token/error-response',
    title: 'A token request with a code never issued gets 400 and an error',
    requirement: requirement(
      'authz.token.error-response',
      'MUST',
      'https://datatracker.ietf.org/doc/html/rfc6749#section-5.2',
      'RFC 6749 §5.2: "The authorization server responds with an HTTP 400 (Bad Request) status code (unless specified otherwise) and includes the following parameters with the response:"; error: "REQUIRED. A single ASCII [USASCII] error code from the following"; invalid_grant: "The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client."',
    ),
    breaks: 'MCP clients that read the error to start over (a new authorization) see no error to act on',
    judge: (r) => {
      const a = r.bogusCode;
      if (!a) return skip(r.noRounds ?? 'no token request was made');
      if (a.status === 400 && typeof a.json?.error === 'string') return pass(said(a));
      return fail(`a code never issued: ${said(a)}`, {
        expected: 'HTTP 400 with error invalid_grant',
        actual: { status: a.status, body: a.json ?? null },
      });
    },
  },
];
