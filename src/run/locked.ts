import type { ServerProfile } from '../discovery/profile.js';
import { schemaRevision } from '../discovery/discover.js';
import { STATELESS_REVISION } from '../schema/revisions.js';
import type { Session } from '../session/session.js';
import { StreamableHttpTransport } from '../transport/http.js';

/** Why a check other than the authorization area's cannot run on a server that wants a token the run lacks. */
export const NEEDS_TOKEN = 'needs a token (--header or --token-env)';

/**
 * Why the handshake failed for want of authorization: the first request of the wire got 401 (or 403) over Streamable
 * HTTP. Then the authorization checks run, and the others skip with the returned reason; undefined otherwise.
 */
export async function lockedOut(session: Session): Promise<string | undefined> {
  const http = session.transport;
  if (!(http instanceof StreamableHttpTransport)) return undefined;
  // Only a POST already answered tells: a 401 fails the handshake after its outcome is settled (microtasks later), while a
  // POST that never got an answer (a silent server) must not hold the run up.
  const o = await Promise.race([
    http.posts[0]?.outcome,
    new Promise<undefined>((resolve) => setImmediate(() => resolve(undefined))),
  ]);
  if (o?.status !== 401 && o?.status !== 403) return undefined;
  const given = Object.keys(http.userHeaders).some((name) => name.toLowerCase() === 'authorization');
  return given
    ? `not run: the server refused the given token (HTTP ${o.status}); ${NEEDS_TOKEN.replace('needs', 'these checks need')} it serves`
    : NEEDS_TOKEN;
}

/** What the checks know of a server they could not initialize: the revision asked for, nothing else. */
export function lockedProfile(version: string): ServerProfile {
  return {
    requestedVersion: version,
    protocolVersion: version,
    revision: version === STATELESS_REVISION ? version : schemaRevision(version),
    initializeResult: {},
    capabilities: {},
    serverInfo: {},
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [],
    walks: [],
  };
}
