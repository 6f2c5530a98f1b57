// MCP Apps (SEP-1865, extension io.modelcontextprotocol/ui): `ui://` resources that hold an app's HTML, and tools
// linked to them by `_meta.ui`. The shapes of `_meta.ui` come from the extension's published schema.
import { SCHEMA_REVISIONS } from '../../schema/revisions.js';
import { APP_MIME_TYPE, type AppsDefinition, validateApps } from '../../schema/ext-apps.js';
import type { Reply } from '../../session/session.js';
import { bounded, isObject } from '../../json.js';
import { requirement } from '../kit/requirement.js';
import {
  type CheckContext,
  type CheckDef,
  type Outcome,
  describeReply,
  fail,
  pass,
  resultOf,
  skip,
  warn,
  worst,
} from '../kit/check.js';

export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
const SPEC = 'https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx';
/** The deprecated flat form of `_meta.ui.resourceUri`. */
const FLAT_KEY = 'ui/resourceUri';

/** A tool's `_meta.ui`, when it has one. */
const uiOf = (item: Record<string, unknown>): unknown => (isObject(item._meta) ? item._meta.ui : undefined);

/** The resource a tool names for its UI: `_meta.ui.resourceUri`, else the deprecated flat key. */
function linkOf(tool: Record<string, unknown>): unknown {
  const ui = uiOf(tool);
  if (isObject(ui) && ui.resourceUri !== undefined) return ui.resourceUri;
  return isObject(tool._meta) ? tool._meta[FLAT_KEY] : undefined;
}

const isUi = (uri: unknown): uri is string => typeof uri === 'string' && uri.startsWith('ui://');

/** Tools that take part in the extension: with `_meta.ui` or the flat key. */
const appTools = (ctx: CheckContext) =>
  ctx.profile.tools.filter((t) => uiOf(t) !== undefined || linkOf(t) !== undefined);

/** Every `ui://` URI the server lists or a tool names, once each. */
const uiUris = (ctx: CheckContext) => [
  ...new Set([...ctx.profile.resources.map((r) => r.uri), ...appTools(ctx).map(linkOf)].filter(isUi)),
];

const NONE = 'the server lists no ui:// resource and no tool with _meta.ui (it does not use the MCP Apps extension)';

/** resources/read of `uri`, once per run: several checks judge it. */
const read = (ctx: CheckContext, uri: string): Promise<Reply> =>
  ctx.memo(`apps/read ${uri}`, () => ctx.request('resources/read', { uri }));

/** The contents a read returned, or undefined when it returned none (an error, or no contents array). */
function contentsOf(reply: Reply): Record<string, unknown>[] | undefined {
  const contents = resultOf(reply)?.contents;
  return Array.isArray(contents) && contents.length > 0 ? contents.filter(isObject) : undefined;
}

/** Each readable ui:// resource with its contents; skips when there is none. */
async function withContents(
  ctx: CheckContext,
  judge: (items: { uri: string; content: Record<string, unknown> }[]) => Outcome,
): Promise<Outcome> {
  const uris = uiUris(ctx);
  if (uris.length === 0) return skip(NONE);
  const items: { uri: string; content: Record<string, unknown> }[] = [];
  for (const uri of uris) for (const content of contentsOf(await read(ctx, uri)) ?? []) items.push({ uri, content });
  if (items.length === 0) return skip(`no ui:// resource could be read (${uris.join(', ')}; see apps/tool/resource)`);
  return judge(items);
}

/** `_meta.ui` of each item against a definition of the extension's schema. */
function metaOutcome(what: string, entries: { name: string; ui: unknown }[], definition: AppsDefinition): Outcome {
  for (const { name, ui } of entries) {
    if (ui === undefined) continue;
    const valid = validateApps(definition, ui);
    if (!valid.ok)
      return fail(`the _meta.ui of ${what} ${name} does not match ${definition} of @modelcontextprotocol/ext-apps`, {
        expected: `_meta.ui as ${definition}`,
        actual: { ui, errors: valid.errors },
      });
  }
  return pass(`${entries.filter((e) => e.ui !== undefined).length} ${what} _meta.ui match ${definition}`);
}

/** A media type without spaces and in lower case, to tell a spelling from another type. */
const mediaType = (value: string) => value.toLowerCase().replace(/\s+/g, '');

/** The HTML of a content item (its text, or its blob decoded); undefined when it has neither. */
function htmlOf(content: Record<string, unknown>): string | undefined {
  if (typeof content.text === 'string') return content.text;
  if (typeof content.blob === 'string') return Buffer.from(content.blob, 'base64').toString('utf8');
  return undefined;
}

/** An HTML document starts with its DOCTYPE, after a BOM, white space and comments. */
const DOCTYPE = /^\uFEFF?(\s|<!--[\s\S]*?-->)*<!doctype\s+html[\s>]/i;
const MARKUP = /<(html|head|body|script|div|!doctype)[\s>]/i;

const REVISIONS = SCHEMA_REVISIONS;
const EXT = APPS_EXTENSION;

export const APPS_CHECKS: CheckDef[] = [
  {
    id: 'apps/tool/meta',
    revisions: REVISIONS,
    extension: EXT,
    title: 'A tool\'s _meta.ui matches the extension\'s McpUiToolMeta (resourceUri, visibility "model"/"app")',
    requirement: requirement(
      'apps.tool.meta',
      'MUST',
      `${SPEC}#resource-discovery`,
      'A tool\'s _meta.ui is an McpUiToolMeta: resourceUri a string, visibility an array of "model" and "app", nothing else',
    ),
    covers: ['apps.tool.visibility'],
    async run(ctx) {
      const tools = appTools(ctx);
      if (tools.length === 0) return skip('no tool has _meta.ui (the server does not link tools to MCP Apps)');
      const outcome = metaOutcome(
        'tool',
        tools.map((t) => ({ name: String(t.name), ui: uiOf(t) })),
        'McpUiToolMeta',
      );
      if (outcome.status !== 'pass') return outcome;
      // "The flat _meta["ui/resourceUri"] format is deprecated. Use _meta.ui.resourceUri instead."
      const flat = tools.filter(
        (t) =>
          isObject(t._meta) &&
          t._meta[FLAT_KEY] !== undefined &&
          !(isObject(uiOf(t)) && (uiOf(t) as Record<string, unknown>).resourceUri !== undefined),
      );
      if (flat.length > 0)
        return warn(
          `${flat.map((t) => String(t.name)).join(', ')} name their UI only by the deprecated _meta["${FLAT_KEY}"]`,
          { expected: '_meta.ui.resourceUri', actual: flat[0]._meta },
        );
      return outcome;
    },
  },
  {
    id: 'apps/tool/resource',
    revisions: REVISIONS,
    extension: EXT,
    title: "The resource a tool's _meta.ui.resourceUri names is a ui:// resource that exists",
    requirement: requirement(
      'apps.tool.resource-exists',
      'MUST',
      `${SPEC}#resource-discovery`,
      'The UI resource a tool names exists on the server (resources/read returns it) and its URI uses the ui:// scheme',
    ),
    covers: ['apps.resource.scheme'],
    async run(ctx) {
      const tools = appTools(ctx).filter((t) => linkOf(t) !== undefined);
      if (tools.length === 0) return skip('no tool names a UI resource in _meta.ui.resourceUri');
      const outcomes: Outcome[] = [];
      for (const tool of tools) {
        const uri = linkOf(tool);
        const what = `${String(tool.name)}'s UI resource ${JSON.stringify(uri)}`;
        if (!isUi(uri)) {
          outcomes.push(fail(`${what} does not use the ui:// scheme`, { expected: 'a ui:// URI', actual: uri }));
          continue;
        }
        const reply = await read(ctx, uri);
        if (!contentsOf(reply))
          outcomes.push(
            fail(`${what} could not be read`, {
              expected: 'resources/read returns its contents',
              actual: describeReply(reply),
            }),
          );
        else outcomes.push(pass(`${what} reads`));
      }
      return worst(outcomes);
    },
  },
  {
    id: 'apps/resource/mime-type',
    revisions: REVISIONS,
    extension: EXT,
    title: `A ui:// resource reads with mimeType ${APP_MIME_TYPE}`,
    requirement: requirement(
      'apps.resource.mime-type',
      'MUST',
      `${SPEC}#content-requirements`,
      `Each content of a ui:// resource read carries mimeType ${APP_MIME_TYPE}`,
    ),
    async run(ctx) {
      return withContents(ctx, (items) => {
        const outcomes = items.map(({ uri, content }) => {
          const type = content.mimeType;
          if (type === APP_MIME_TYPE) return pass(uri);
          const actual = { uri, mimeType: type ?? null };
          // The same media type spelled otherwise (a space, capitals): hosts that compare the string may not render it.
          if (typeof type === 'string' && mediaType(type) === APP_MIME_TYPE)
            return warn(`${uri} reads with mimeType ${JSON.stringify(type)}, not exactly ${APP_MIME_TYPE}`, {
              expected: { mimeType: APP_MIME_TYPE },
              actual,
            });
          return fail(`${uri} reads with mimeType ${JSON.stringify(type ?? null)}`, {
            expected: { mimeType: APP_MIME_TYPE },
            actual,
          });
        });
        const bad = outcomes.filter((o) => o.status !== 'pass');
        return bad.length > 0 ? worst(bad) : pass(`${items.length} ui:// content(s) read as ${APP_MIME_TYPE}`);
      });
    },
  },
  {
    id: 'apps/resource/html',
    revisions: REVISIONS,
    extension: EXT,
    title: 'A ui:// resource reads as an HTML document, in text or a base64 blob',
    requirement: requirement(
      'apps.resource.html',
      'MUST',
      `${SPEC}#content-requirements`,
      'The content of a ui:// resource is given as text or a base64 blob and is an HTML5 document',
    ),
    async run(ctx) {
      return withContents(ctx, (items) => {
        const outcomes = items.map(({ uri, content }): Outcome => {
          const html = htmlOf(content);
          if (html === undefined)
            return fail(`${uri} reads with neither text nor blob`, {
              expected: 'text (HTML) or blob (base64 HTML)',
              actual: bounded(content),
            });
          if (DOCTYPE.test(html)) return pass(uri);
          const actual = { uri, start: html.slice(0, 200) };
          // Markup without its DOCTYPE is no conforming HTML5 document, but browsers render it: a heuristic, so it warns.
          if (MARKUP.test(html))
            return warn(`${uri} is markup without <!DOCTYPE html>`, {
              expected: 'an HTML5 document (<!DOCTYPE html> first)',
              actual,
            });
          return fail(`${uri} is not an HTML document`, { expected: 'an HTML5 document', actual });
        });
        const bad = outcomes.filter((o) => o.status !== 'pass');
        return bad.length > 0 ? worst(bad) : pass(`${items.length} ui:// content(s) are HTML documents`);
      });
    },
  },
  {
    id: 'apps/resource/meta',
    revisions: REVISIONS,
    extension: EXT,
    title:
      "A ui:// resource's _meta.ui (csp, permissions, domain, prefersBorder) matches the extension's McpUiResourceMeta",
    requirement: requirement(
      'apps.resource.meta',
      'MUST',
      `${SPEC}#ui-resource-format`,
      'The _meta.ui of a UI resource, listed or read, is an McpUiResourceMeta: CSP domain lists of strings, known permissions as objects, domain a string, prefersBorder a boolean',
    ),
    async run(ctx) {
      return withContents(ctx, (items) => {
        const listed = ctx.profile.resources
          .filter((r) => isUi(r.uri))
          .map((r) => ({ name: `${String(r.uri)} (listed)`, ui: uiOf(r) }));
        const read = items.map(({ uri, content }) => ({ name: `${uri} (read)`, ui: uiOf(content) }));
        return metaOutcome('resource', [...listed, ...read], 'McpUiResourceMeta');
      });
    },
  },
  {
    id: 'apps/resource/listed-mime-type',
    revisions: REVISIONS,
    extension: EXT,
    title: `A listed ui:// resource declares mimeType ${APP_MIME_TYPE}`,
    requirement: requirement(
      'apps.resource.listed-mime-type',
      'SHOULD',
      `${SPEC}#ui-resource-format`,
      `A ui:// resource in resources/list should declare mimeType ${APP_MIME_TYPE}`,
    ),
    async run(ctx) {
      const listed = ctx.profile.resources.filter((r) => isUi(r.uri));
      if (listed.length === 0)
        return skip('the server lists no ui:// resource (UI-only resources may be left out of resources/list)');
      const bad = listed.filter((r) => r.mimeType !== APP_MIME_TYPE);
      return bad.length > 0
        ? warn(
            `${bad.map((r) => String(r.uri)).join(', ')} listed with mimeType ${JSON.stringify(bad[0].mimeType ?? null)}`,
            {
              expected: { mimeType: APP_MIME_TYPE },
              actual: bad.map((r) => ({ uri: r.uri, mimeType: r.mimeType ?? null })),
            },
          )
        : pass(`${listed.length} listed ui:// resource(s) declare ${APP_MIME_TYPE}`);
    },
  },
];
