// What `mcp-conformance authorization` recorded of an authorization server, for the checks to judge: its metadata as
// MCP clients discover it, a registration, and the authorization code rounds (one good one, and the ones it must refuse).
import type { Outcome } from '../kit/check.js';
import type { Requirement } from '../../schema/generated/report.js';

/** One HTTP answer, as a finding shows it (secrets are hidden when the report is written). */
export interface Answer {
  method: string;
  url: string;
  /** The HTTP status, or why there was none (a refused connection, a timeout). */
  status: number | string;
  contentType?: string;
  cacheControl?: string;
  /** The JSON body, when it was JSON. */
  json?: Record<string, unknown>;
  /** The form or JSON sent, secrets included until the report hides them. */
  sent?: Record<string, unknown>;
}

/** How an authorization request ended: at the redirect_uri with its query, or why not. */
export interface Authorized {
  /** The authorization request's URL. */
  request: string;
  /** The redirect to the redirect_uri, when it came. */
  redirect?: URL;
  /** Why no redirect came (a login page, an error status, a timeout). */
  stuck?: string;
  /** The redirect came, but needing a person: the end-user step could not run here. */
  needsPerson?: boolean;
}

/** One authorization code round: the authorization request, then the token request the round makes. */
export interface Round {
  authorized: Authorized;
  token?: Answer;
}

export interface AuthzRecord {
  /** The issuer identifier the user named. */
  issuer: string;
  /** Each metadata location MCP clients try, in their order, until one answered 200 with JSON. */
  discovery: Answer[];
  /** The metadata the first location that answered served, and where. */
  metadata?: Record<string, unknown>;
  metadataUrl?: string;
  /** The dynamic registration the suite made, when the metadata offers a registration_endpoint. */
  registration?: Answer;
  /** The client the rounds use, or why there is none. */
  client?: { id: string; secret?: string; authMethod: string; source: 'pre-registered' | 'registered' };
  noClient?: string;
  /** Why the rounds did not run (no S256, no client, no endpoints); set when `rounds` is empty. */
  noRounds?: string;
  /** Why the client ID metadata document round did not run, where the metadata advertises the documents. */
  noCimd?: string;
  /** The scope the rounds asked for, if any. */
  scope?: string;
  /** The `resource` (RFC 8707) the rounds asked for. */
  resource: string;
  rounds: {
    /** S256 challenge, the right verifier, `resource`: the flow every MCP client runs. */
    good?: Round;
    /** The token request without code_verifier. */
    missingVerifier?: Round;
    /** The token request with another verifier. */
    wrongVerifier?: Round;
    /** The token request with the challenge itself as the verifier (a downgrade to plain). */
    plainVerifier?: Round;
    /** An authorization request without code_challenge. */
    noChallenge?: Round;
    /** The good flow's authorization request with the suite's client ID metadata document URL as client_id. */
    cimd?: Round;
  };
  /** The refresh grant with the good round's refresh token, when it issued one. */
  refresh?: Answer;
  /** The refresh grant with that refresh token again, once the refresh replaced it (made last: it may revoke the grant). */
  refreshReuse?: Answer;
  /** A token request with a code the server never issued. */
  bogusCode?: Answer;
}

/** An authorization-server check: it reads the record and concludes. */
export interface AuthzCheckDef {
  /** `authz/<area>/<behaviour>`. */
  id: string;
  title: string;
  requirement: Requirement;
  covers?: string[];
  /** Which MCP clients break when the check fails, and how: appended to a failure or warning. */
  breaks: string;
  judge(record: AuthzRecord): Outcome;
}
