import { REVISIONS, STATELESS_REVISION } from '../schema/revisions.js';
import type { Reply, Session } from '../session/session.js';
import type { Item, ListWalk, ServerProfile } from './profile.js';
import { TOOL } from '../version.js';
import { isObject } from '../json.js';
import type { ParamHeaders } from '../transport/transport.js';

/** Pages followed per list before the walk is declared non-terminating. */
export const PAGE_CAP = 100;

/** The list methods, the capability that allows each, and the field that holds its items. */
export const LISTS = [
  { method: 'tools/list', capability: 'tools', field: 'tools', key: 'name' },
  { method: 'resources/list', capability: 'resources', field: 'resources', key: 'uri' },
  { method: 'resources/templates/list', capability: 'resources', field: 'resourceTemplates', key: 'uriTemplate' },
  { method: 'prompts/list', capability: 'prompts', field: 'prompts', key: 'name' },
] as const;

export class DiscoveryError extends Error {
  /** The JSON-RPC error the handshake was answered with, when it was one. */
  answer?: unknown;
}
/** The server answered server/discover, but does not name the revision among its supportedVersions. */
export class UnsupportedEra extends DiscoveryError {}

/**
 * Why a server/discover result rules `revision` out: its supportedVersions leave it out (a legacy server that knows
 * the method, and refuses every request of that revision). Undefined when the revision may be tested.
 */
export function eraRefusal(result: Record<string, unknown>, revision: string): string | undefined {
  const versions = result.supportedVersions;
  if (!Array.isArray(versions) || versions.includes(revision)) return undefined;
  return `server/discover lists supportedVersions ${JSON.stringify(versions)}, without ${revision}`;
}

/**
 * Why a failed handshake shows that the server does not speak `revision` at all, rather than that it speaks it badly:
 * server/discover unknown (-32601), refused as a legacy HTTP server refuses a request without a session (-32000), or
 * listing other versions, or initialize of a legacy revision refused with an
 * error. Undefined for any other failure (no answer, a malformed one, a crash).
 */
export function unspokenBy(err: unknown, revision: string): string | undefined {
  if (err instanceof UnsupportedEra) return err.message;
  if (!(err instanceof DiscoveryError) || !isObject(err.answer)) return undefined;
  const answer = JSON.stringify(err.answer);
  if (revision !== STATELESS_REVISION) return `initialize at ${revision} was answered with the error ${answer}`;
  // A legacy Streamable HTTP server refuses a request without a session as implementation-defined -32000 (with 400).
  return err.answer.code === -32601 || err.answer.code === -32000
    ? `server/discover was answered with the error ${answer}`
    : undefined;
}

/** The id of the check that owns the handshake of a revision's wire. */
export const handshakeCheckId = (revision: string): string =>
  revision === STATELESS_REVISION ? 'stateless/discover/result' : 'lifecycle/initialize/result';

/** Sends initialize, declaring `capabilities` (none by default); the caller judges the reply. */
export function initialize(
  session: Session,
  protocolVersion: string,
  capabilities: Record<string, unknown> = {},
): Promise<Reply> {
  return session.request('initialize', {
    protocolVersion,
    capabilities,
    clientInfo: { name: TOOL.name, version: TOOL.version },
  });
}

/** The version an initialize result names, when the reply is a result that names one. */
export function versionIn(reply: Reply): string | undefined {
  const v = (reply.message.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  return typeof v === 'string' ? v : undefined;
}

const asObject = (v: unknown): Record<string, unknown> | undefined => (isObject(v) ? v : undefined);

/** The schema revision to validate a negotiated version with: itself, or the newest older one the project has. */
export function schemaRevision(protocolVersion: string): string {
  return REVISIONS.find((r) => r <= protocolVersion) ?? REVISIONS[REVISIONS.length - 1];
}

/** The `_meta` fields every request carries on the stateless wire (basic#per-request-protocol-fields). */
export const statelessMeta = (protocolVersion: string): Record<string, unknown> => ({
  'io.modelcontextprotocol/protocolVersion': protocolVersion,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: TOOL.name, version: TOOL.version },
});

/**
 * Sets the session up for a revision's wire and shakes hands: initialize (and initialized), or server/discover.
 * `initialized` is the answer to an initialize the session already sent (the auto probe's).
 */
export async function handshake(
  session: Session,
  protocolVersion: string,
  initialized?: Reply,
): Promise<{ result: Record<string, unknown>; negotiated: string }> {
  const stateless = protocolVersion === STATELESS_REVISION;
  if (stateless) {
    session.requestMeta = statelessMeta(protocolVersion);
    session.revision = protocolVersion;
  }
  const method = stateless ? 'server/discover' : 'initialize';
  const reply = initialized ?? (await (stateless ? session.request(method, {}) : initialize(session, protocolVersion)));
  const result = asObject(reply.message.result);
  if (!result) {
    const err = new DiscoveryError(`${method} failed: ${JSON.stringify(reply.message.error ?? reply.message.result)}`);
    err.answer = reply.message.error;
    throw err;
  }
  const refused = stateless ? eraRefusal(result, protocolVersion) : undefined;
  if (refused) throw new UnsupportedEra(refused);
  if (stateless) return { result, negotiated: protocolVersion };
  const negotiated = typeof result.protocolVersion === 'string' ? result.protocolVersion : protocolVersion;
  session.revision = schemaRevision(negotiated);
  session.notify('notifications/initialized');
  return { result, negotiated };
}

/**
 * Shakes hands in the revision's wire (the newest initialize revision by default; `initialized` as in handshake), then
 * walks every list the capabilities allow.
 */
export async function discover(
  session: Session,
  protocolVersion: string = REVISIONS[0],
  initialized?: Reply,
): Promise<ServerProfile> {
  const { result, negotiated } = await handshake(session, protocolVersion, initialized);
  const capabilities = asObject(result.capabilities) ?? {};
  // On the stateless wire the server names itself in the result's _meta.
  const serverInfo =
    asObject(result.serverInfo) ?? asObject(asObject(result._meta)?.['io.modelcontextprotocol/serverInfo']) ?? {};
  const profile: ServerProfile = {
    requestedVersion: protocolVersion,
    protocolVersion: negotiated,
    revision: session.revision!,
    initializeResult: result,
    capabilities,
    serverInfo,
    instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [],
    walks: [],
  };
  await Promise.all(
    LISTS.filter((l) => capabilities[l.capability] !== undefined).map(async (l) => {
      const { items, walk } = await walkList(session, l.method, l.field, l.key);
      profile[l.field] = items;
      profile.walks.push(walk);
    }),
  );
  if (session.revision === STATELESS_REVISION) session.paramHeaders = paramHeadersOf(profile.tools);
  return profile;
}

/** The arguments each tool asks clients to mirror in `Mcp-Param-{Name}` headers: top-level properties with `x-mcp-header`. */
export function paramHeadersOf(tools: Item[]): ParamHeaders {
  const headers = new Map<string, Record<string, string>>();
  for (const tool of tools) {
    const properties = asObject(asObject(tool.inputSchema)?.properties) ?? {};
    const mirrored = Object.entries(properties).flatMap(([arg, schema]) => {
      const header = asObject(schema)?.['x-mcp-header'];
      return typeof header === 'string' && header !== '' ? [[arg, header] as const] : [];
    });
    if (mirrored.length > 0) headers.set(String(tool.name), Object.fromEntries(mirrored));
  }
  return headers;
}

/** Every list `profile` declares, walked on `session` side by side. */
export function walkLists(session: Session, profile: ServerProfile) {
  const lists = LISTS.filter((l) => profile.capabilities[l.capability] !== undefined);
  return Promise.all(lists.map(async (l) => ({ ...l, ...(await walkList(session, l.method, l.field, l.key)) })));
}

/** The lists of walkLists. */
export type ListsWalked = Awaited<ReturnType<typeof walkLists>>;

/** Follows nextCursor to the end, bounded by PAGE_CAP and stopped by a repeated cursor. */
export async function walkList(
  session: Session,
  method: string,
  field: string,
  key: string,
): Promise<{ items: Item[]; walk: ListWalk }> {
  const items: Item[] = [];
  const walk: ListWalk = { method, pages: 0, duplicates: [] };
  const seenKeys = new Set<string>();
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  try {
    do {
      const reply = await session.request(method, cursor === undefined ? {} : { cursor });
      const result = asObject(reply.message.result);
      if (!result) {
        walk.problem = `page ${walk.pages + 1} failed: ${JSON.stringify(reply.message.error ?? reply.message.result)}`;
        break;
      }
      walk.pages++;
      const page = Array.isArray(result[field]) ? (result[field] as unknown[]) : [];
      for (const raw of page) {
        const item = asObject(raw);
        if (!item) continue;
        const k = String(item[key]);
        if (seenKeys.has(k)) walk.duplicates.push(k);
        else items.push(item);
        seenKeys.add(k);
      }
      cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
      if (cursor !== undefined && seenCursors.has(cursor)) {
        walk.problem = `cursor ${JSON.stringify(cursor)} repeated after ${walk.pages} pages`;
        break;
      }
      if (cursor !== undefined) seenCursors.add(cursor);
      if (walk.pages >= PAGE_CAP && cursor !== undefined) {
        walk.problem = `still returning nextCursor after ${PAGE_CAP} pages`;
        break;
      }
    } while (cursor !== undefined);
  } catch (err) {
    walk.problem = `page ${walk.pages + 1}: ${(err as Error).message}`;
  }
  return { items, walk };
}
