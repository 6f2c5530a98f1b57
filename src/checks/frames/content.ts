import { isDeepStrictEqual } from 'node:util';
import type { InboundEvent } from '../../session/session.js';
import { requirement } from '../kit/requirement.js';
import type { Finding, FrameRule } from '../kit/frame-rule.js';
import { isObject } from '../../json.js';

type Obj = Record<string, unknown>;

/** Every object inside `value` (depth-bounded), with its path. */
function* objects(value: unknown, path = '$', depth = 0): Generator<[Obj, string]> {
  if (depth > 32 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* objects(value[i], `${path}[${i}]`, depth + 1);
    return;
  }
  yield [value as Obj, path];
  for (const [k, v] of Object.entries(value)) yield* objects(v, `${path}.${k}`, depth + 1);
}

/** The result of a response, when the frame is one. */
const resultOf = (e: InboundEvent): Obj | undefined =>
  e.kind === 'response' && isObject(e.message?.result) ? e.message.result : undefined;

/** The objects of each result, walked once for all the rules below (a frame goes past each of them). */
const walked = new WeakMap<Obj, [Obj, string][]>();

/** Runs `find` over every object of every result; undefined (not applicable) when `select` picks none. */
function overResults(
  e: InboundEvent,
  select: (o: Obj) => boolean,
  find: (o: Obj, path: string) => Finding | undefined,
): Finding[] | undefined {
  const result = resultOf(e);
  if (!result) return undefined;
  let all = walked.get(result);
  if (!all) walked.set(result, (all = [...objects(result, `result of ${e.exchange?.method ?? 'a response'}`)]));
  let seen = false;
  const findings: Finding[] = [];
  for (const [o, path] of all) {
    if (!select(o)) continue;
    seen = true;
    const f = find(o, path);
    if (f) findings.push(f);
  }
  return seen ? findings : undefined;
}

const warnAt = (message: string, expected: unknown, actual: unknown): Finding => ({
  severity: 'warn',
  message,
  expected,
  actual,
});

/** RFC 3339 / ISO 8601 date-time, the form the schema documents for timestamps. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const SIZES = /^(\d+x\d+|any)$/;

export const CONTENT_RULES: FrameRule[] = [
  {
    id: 'content/media/mime-type',
    title: 'Image and audio blocks carry an image/* or audio/* MIME type',
    requirement: requirement(
      'prompts.image',
      'MUST',
      'server/prompts#image-content',
      'Image (and audio) data is base64-encoded and carries a valid MIME type of its kind',
    ),
    covers: ['prompts.audio', 'content.image', 'content.audio'],
    looksAt: 'image or audio content block',
    inspect: (e) =>
      overResults(
        e,
        (o) => (o.type === 'image' || o.type === 'audio') && 'data' in o,
        (o, path) =>
          typeof o.mimeType === 'string' && o.mimeType.startsWith(`${o.type}/`)
            ? undefined
            : warnAt(
                `${o.type} block at ${path} has MIME type ${JSON.stringify(o.mimeType)}`,
                `${o.type}/*`,
                o.mimeType,
              ),
      ),
  },
  {
    id: 'prompts/embedded/mime-type',
    title: 'Resources embedded in prompt messages name their MIME type',
    requirement: requirement(
      'prompts.embedded',
      'SHOULD',
      'server/prompts#embedded-resources',
      'An embedded resource in a prompt carries a URI, its MIME type, and text or base64 data (the prose asks for the MIME type; the schema does not)',
    ),
    looksAt: 'embedded resource in a prompt',
    inspect: (e) =>
      e.exchange?.method !== 'prompts/get'
        ? undefined
        : overResults(
            e,
            (o) => o.type === 'resource' && isObject(o.resource),
            (o, path) =>
              typeof (o.resource as Obj).mimeType === 'string'
                ? undefined
                : warnAt(`embedded resource at ${path} has no mimeType`, 'a mimeType', o.resource),
          ),
  },
  {
    id: 'content/embedded/resources-capability',
    title: 'A server that embeds resources declares the resources capability',
    requirement: requirement(
      'tools.embedded.resources-cap',
      'SHOULD',
      'server/tools#embedded-resources',
      'Servers that return embedded resources should implement the resources capability',
    ),
    looksAt: 'embedded resource',
    inspect: (e, ctx) =>
      ctx.capabilities === undefined
        ? undefined
        : overResults(
            e,
            (o) => o.type === 'resource' && isObject(o.resource),
            (_o, path) =>
              ctx.capabilities!.resources !== undefined
                ? undefined
                : warnAt(
                    `embedded resource at ${path}, but no resources capability`,
                    'capabilities.resources',
                    Object.keys(ctx.capabilities!),
                  ),
          ),
  },
  {
    id: 'annotations/last-modified/format',
    title: 'annotations.lastModified is an ISO 8601 timestamp',
    requirement: requirement(
      'annot.lastModified',
      'SHOULD',
      'server/resources#annotations',
      'lastModified should be an ISO 8601 formatted date and time',
    ),
    looksAt: 'annotations.lastModified',
    inspect: (e) =>
      overResults(
        e,
        (o) => isObject(o.annotations) && 'lastModified' in o.annotations,
        (o, path) => {
          const v = (o.annotations as Obj).lastModified;
          return typeof v === 'string' && ISO_DATE_TIME.test(v) && !Number.isNaN(Date.parse(v))
            ? undefined
            : warnAt(`lastModified at ${path} is ${JSON.stringify(v)}`, 'ISO 8601, e.g. 2025-01-12T15:00:58Z', v);
        },
      ),
  },
  {
    id: 'icons/usable',
    title: 'Icons use https: or data: URIs, WxH sizes, and a type clients must support',
    requirement: requirement(
      'icons.scheme',
      'SHOULD',
      'basic#icons',
      'Clients accept only https: and data: icon URIs; sizes are WxH or any; PNG or JPEG is the type every client supports',
    ),
    covers: ['icons.sizes', 'icons.mime'],
    looksAt: 'icons',
    inspect: (e) =>
      overResults(
        e,
        (o) => Array.isArray(o.icons) && o.icons.length > 0,
        (o, path) => {
          const icons = (o.icons as unknown[]).filter(isObject);
          const problems: string[] = [];
          for (const icon of icons) {
            const src = String(icon.src);
            if (!/^https:/i.test(src) && !/^data:image\/[\w.+-]+;base64,/i.test(src))
              problems.push(`src ${JSON.stringify(src.slice(0, 60))} is neither https: nor a base64 data: image`);
            for (const size of Array.isArray(icon.sizes) ? icon.sizes : [])
              if (!SIZES.test(String(size))) problems.push(`size ${JSON.stringify(size)} is not WxH or any`);
          }
          const type = (icon: Obj) =>
            String(
              icon.mimeType ??
                /^data:(image\/[\w.+-]+)/i.exec(String(icon.src))?.[1] ??
                /\.(png|jpe?g)(\?|$)/i.exec(String(icon.src))?.[0] ??
                '',
            );
          if (!icons.some((icon) => /png|jpe?g/i.test(type(icon)))) problems.push('no icon is PNG or JPEG');
          return problems.length > 0
            ? warnAt(
                `icons at ${path}: ${problems.join('; ')}`,
                'https: or data:image URIs, WxH sizes, a PNG or JPEG icon',
                o.icons,
              )
            : undefined;
        },
      ),
  },
  {
    id: 'tools/call/error-content',
    title: 'A tool error result explains itself in text',
    requirement: requirement(
      'tools.call.isError-content',
      'SHOULD',
      'server/tools#error-handling',
      'A tool execution error carries content, with text the model can act on',
    ),
    looksAt: 'tools/call result with isError',
    inspect(e) {
      const r = resultOf(e);
      if (e.exchange?.method !== 'tools/call' || r?.isError !== true) return undefined;
      const hasText =
        Array.isArray(r.content) &&
        r.content.some((c) => isObject(c) && c.type === 'text' && typeof c.text === 'string' && c.text.length > 0);
      return hasText ? [] : [warnAt('a tool error result has no text content', 'content with a text block', r.content)];
    },
  },
  {
    id: 'tools/call/structured-text-mirror',
    title: 'Structured tool results are mirrored in a text block',
    requirement: requirement(
      'tools.structured.text-mirror',
      'SHOULD',
      'server/tools#structured-content',
      'A tool that returns structuredContent should also return it serialised as JSON in a text block',
    ),
    looksAt: 'tools/call result with structuredContent',
    inspect(e) {
      const r = resultOf(e);
      if (e.exchange?.method !== 'tools/call' || r === undefined || !('structuredContent' in r)) return undefined;
      const mirrored =
        Array.isArray(r.content) &&
        r.content.some((c) => {
          if (!isObject(c) || c.type !== 'text' || typeof c.text !== 'string') return false;
          try {
            return isDeepStrictEqual(JSON.parse(c.text), r.structuredContent);
          } catch {
            return false;
          }
        });
      return mirrored
        ? []
        : [
            warnAt(
              'structuredContent is not mirrored as JSON in a text block',
              { type: 'text', text: JSON.stringify(r.structuredContent) },
              r.content,
            ),
          ];
    },
  },
];
