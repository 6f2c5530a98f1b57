// What the Skills checks ask a server, once per run each (ctx.memo): the whole skills/list walk, skills/get of a URI,
// resources/read of a skill file as bytes, and resources/directory/read of a directory over all its pages.
import { isObject } from '../../json.js';
import type { Skill, SkillResource } from '../../schema/generated/skills.js';
import type { Reply } from '../../session/session.js';
import { type CheckContext, type Outcome, errorOf, resultOf, skip } from '../kit/check.js';
import { capabilitiesMeta } from '../stateless/mrtr.js';
import { undeclaredExtension } from '../../skip-reason.js';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
export const SPEC = 'https://github.com/modelcontextprotocol/ext-skills/blob/main/specification/stable/skills.mdx';
/** Pages of one listing walked at most: a server that hands out cursors for ever is not walked for ever. */
const MAX_PAGES = 50;
/** Skill files read at most in a run: a server with thousands of skills is judged on the first ones. */
export const MAX_FILES = 256;

/** The extension's settings, when the server declares it in its capabilities. */
export function settings(ctx: CheckContext): Record<string, unknown> | undefined {
  const extensions = ctx.profile.capabilities.extensions;
  const value = isObject(extensions) ? extensions[SKILLS_EXTENSION] : undefined;
  return value === undefined ? undefined : isObject(value) ? value : {};
}

/** The skip of a check on a server that does not declare the extension. */
export function undeclared(ctx: CheckContext): Outcome | undefined {
  return settings(ctx) === undefined ? skip(undeclaredExtension(SKILLS_EXTENSION)) : undefined;
}

/** Whether the server declares `directoryRead: true`. */
export const directoryRead = (ctx: CheckContext): boolean => settings(ctx)?.directoryRead === true;

/** A request of a client that declares the extension, as a host that uses it does. */
export const send = (ctx: CheckContext, method: string, params: Record<string, unknown> = {}): Promise<Reply> =>
  ctx.request(method, { ...params, ...capabilitiesMeta({ extensions: { [SKILLS_EXTENSION]: {} } }) });

/** A skill file of a manifest, as far as it is well formed (its shape is schema/results' to judge). */
export type SkillFile = Pick<SkillResource, 'uri'> & Partial<Pick<SkillResource, 'digest' | 'size'>>;

/** A skill entry whose uri, frontmatter and resources can be read; how it came: listed, or by skills/get only. */
export interface Entry {
  uri: Skill['uri'];
  /** Skill['frontmatter'] as far as it is an object: its name and description are schema/results' to judge. */
  frontmatter: Record<string, unknown>;
  resources: SkillFile[] | 'dynamic';
  via: 'skills/list' | 'skills/get';
  /** The entry as the server sent it. */
  raw: Record<string, unknown>;
}

/** A Skill entry, when its uri, frontmatter and resources are there to judge; undefined otherwise. */
export function entryOf(raw: unknown, via: Entry['via']): Entry | undefined {
  if (!isObject(raw) || typeof raw.uri !== 'string' || !isObject(raw.frontmatter)) return undefined;
  const r = raw.resources;
  if (r !== 'dynamic' && !(Array.isArray(r) && r.every((f) => isObject(f) && typeof f.uri === 'string')))
    return undefined;
  const resources =
    r === 'dynamic'
      ? r
      : (r as Record<string, unknown>[]).map((f) => ({
          uri: f.uri as string,
          ...(typeof f.digest === 'string' && { digest: f.digest }),
          ...(typeof f.size === 'number' && { size: f.size }),
        }));
  return { uri: raw.uri, frontmatter: raw.frontmatter, resources, via, raw };
}

/** A paginated walk (cursor after cursor, as resources/list pages): every page's items, or the reply that failed. */
interface Walk {
  replies: Reply[];
  /** Each item with the page (from 1) it came on. */
  items: { raw: unknown; page: number }[];
  /** The reply that gave no page: an error, or a result without the items. */
  failed?: Reply;
  /** The walk stopped at MAX_PAGES with a cursor left: items may be missing. */
  truncated: boolean;
}

async function walk(ctx: CheckContext, method: string, params: Record<string, unknown>, key: string): Promise<Walk> {
  const out: Walk = { replies: [], items: [], truncated: false };
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const reply = await send(ctx, method, cursor === undefined ? params : { ...params, cursor });
    const r = resultOf(reply);
    if (!r || !Array.isArray(r[key])) return { ...out, failed: reply };
    out.replies.push(reply);
    for (const raw of r[key] as unknown[]) out.items.push({ raw, page: out.replies.length });
    cursor = typeof r.nextCursor === 'string' && !seen.has(r.nextCursor) ? r.nextCursor : undefined;
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined && out.replies.length < MAX_PAGES);
  return { ...out, truncated: cursor !== undefined };
}

/** The skills/list walk: the entries of every page, with the page each came on. */
export const listing = (ctx: CheckContext): Promise<Walk> =>
  ctx.memo('skills/list walk', () => walk(ctx, 'skills/list', {}, 'skills'));

/** skills/get of one URI. */
export const get = (ctx: CheckContext, uri: string): Promise<Reply> =>
  ctx.memo(`skills/get ${uri}`, () => send(ctx, 'skills/get', { uri }));

/** `scheme://…/SKILL.md` URIs the server's instructions name. */
export function instructedUris(ctx: CheckContext): string[] {
  const text = ctx.profile.instructions ?? '';
  return [...new Set(text.match(/[a-z][a-z0-9+.-]*:\/\/[^\s"'`<>()[\]{}]*\/SKILL\.md(?![\w-]|\.\w)/gi) ?? [])];
}

/**
 * Every entry to judge: the listed ones, then those the instructions name, which skills/get gives. A skill listed more
 * than once (split across pages: skills/list/atomic's finding) is judged by its skills/get entry instead.
 */
export function entries(ctx: CheckContext): Promise<Entry[]> {
  return ctx.memo('skills/entries', async () => {
    const listed = (await listing(ctx)).items.map(({ raw }) => raw);
    const times = (uri: string) => listed.filter((raw) => isObject(raw) && raw.uri === uri).length;
    const out: Entry[] = [];
    const fetched: string[] = [];
    for (const raw of listed) {
      const e = entryOf(raw, 'skills/list');
      if (!e || out.some((o) => o.uri === e.uri) || fetched.includes(e.uri)) continue;
      if (times(e.uri) === 1) out.push(e);
      else fetched.push(e.uri);
    }
    for (const uri of [...fetched, ...instructedUris(ctx)].filter((u) => !out.some((o) => o.uri === u))) {
      const e = entryOf(resultOf(await get(ctx, uri))?.skill, 'skills/get');
      if (e && e.uri === uri && !out.some((o) => o.uri === uri)) out.push(e);
    }
    return out;
  });
}

/** The entries whose resources are a manifest, with their files (at most MAX_FILES in all). */
export async function manifests(ctx: CheckContext): Promise<{ entry: Entry; files: SkillFile[] }[]> {
  let budget = MAX_FILES;
  const out: { entry: Entry; files: SkillFile[] }[] = [];
  for (const entry of await entries(ctx)) {
    if (entry.resources === 'dynamic' || budget <= 0) continue;
    out.push({ entry, files: entry.resources.slice(0, budget) });
    budget -= entry.resources.length;
  }
  return out;
}

/** A file's raw bytes as resources/read returns them, or the reply that gave none. */
export type Read = { bytes: Buffer; content: Record<string, unknown>; reply: Reply } | { reply: Reply; why: string };

/** resources/read of `uri`: the content for that URI (or the only one), as bytes (text as UTF-8, a blob decoded). */
export function read(ctx: CheckContext, uri: string): Promise<Read> {
  return ctx.memo(`skills/read ${uri}`, async () => {
    const reply = await ctx.request('resources/read', { uri });
    const contents = resultOf(reply)?.contents;
    if (errorOf(reply) || !Array.isArray(contents)) return { reply, why: 'resources/read returned no contents' };
    const items = contents.filter(isObject);
    const content = items.find((c) => c.uri === uri) ?? (items.length === 1 ? items[0] : undefined);
    if (!content) return { reply, why: `resources/read returned no content for ${uri}` };
    if (typeof content.text === 'string') return { bytes: Buffer.from(content.text, 'utf8'), content, reply };
    if (typeof content.blob === 'string') return { bytes: Buffer.from(content.blob, 'base64'), content, reply };
    return { reply, why: 'the content has neither text nor blob' };
  });
}

/** A directory read over all its pages: the children, or the reply that failed (see Walk). */
export type Directory = { children: Record<string, unknown>[]; truncated: boolean } | { failed: Reply };

export function directory(ctx: CheckContext, uri: string): Promise<Directory> {
  return ctx.memo(`skills/directory ${uri}`, async () => {
    const w = await walk(ctx, 'resources/directory/read', { uri }, 'resources');
    if (w.failed) return { failed: w.failed };
    return { children: w.items.map((i) => i.raw).filter(isObject), truncated: w.truncated };
  });
}

export const DIRECTORY_MIME_TYPE = 'inode/directory';
