// What a frame says of itself and its server: _meta key format, and the capability a notification needs.
import type { InboundEvent, Message } from '../../session/session.js';
import { isObject } from '../../json.js';
import { requirement } from '../kit/requirement.js';
import { type FrameRule, failing, messageOf } from '../kit/frame-rule.js';

/** Grammar of `_meta` keys: optional dotted prefix + "/", then a name (basic#meta). */
const META_KEY =
  /^(?:(?:[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)*[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?\/)?(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$/;

/** Collects the _meta keys under `value`; `path` (keys and indexes from the frame) is spelled out only for those. */
function metaKeys(value: unknown, path: (string | number)[], out: { path: string; key: string }[]): void {
  if (path.length > 64 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      path.push(i);
      metaKeys(v, path, out);
      path.pop();
    });
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k === '_meta' && isObject(v)) {
      const at = `$${path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('')}._meta`;
      for (const key of Object.keys(v)) out.push({ path: at, key });
    }
    path.push(k);
    metaKeys(v, path, out);
    path.pop();
  }
}

/** Each frame's _meta keys, collected once for the rules that read them. */
const metaKeysByMessage = new WeakMap<Message, { path: string; key: string }[]>();

/** The _meta keys of a frame (2025-06-18 and later, where the key format exists); undefined when it has none. */
export function metaKeysOf(e: InboundEvent): { path: string; key: string }[] | undefined {
  const m = messageOf(e);
  if (!m || e.revision === undefined || e.revision === '2025-03-26') return undefined;
  let keys = metaKeysByMessage.get(m);
  if (!keys) {
    keys = [];
    metaKeys(m, [], keys);
    metaKeysByMessage.set(m, keys);
  }
  return keys.length > 0 ? keys : undefined;
}

export const META_RULES: FrameRule[] = [
  {
    id: 'base/meta/key-format',
    title: '_meta keys follow the key name format',
    requirement: requirement(
      'base.meta.key-format',
      'MUST',
      'basic#meta',
      '_meta keys are an optional reverse-DNS style prefix and slash, then a name of letters, digits, dots, dashes and underscores',
    ),
    looksAt: 'message with _meta (2025-06-18 and later)',
    inspect(e) {
      return metaKeysOf(e)
        ?.filter((k) => !META_KEY.test(k.key))
        .map((k) => ({
          severity: 'fail' as const,
          message: `_meta key ${JSON.stringify(k.key)} at ${k.path} does not follow the key format`,
          expected: 'prefix/name',
          actual: k.key,
        }));
    },
  },
  {
    id: 'capabilities/logging/declared',
    title: 'Log notifications only with the logging capability',
    requirement: requirement(
      'cap.logging.declared',
      'MUST',
      'server/utilities/logging#capabilities',
      'A server that emits notifications/message declares the logging capability',
    ),
    looksAt: 'notifications/message',
    inspect(e, ctx) {
      const m = messageOf(e);
      if (m?.method !== 'notifications/message' || !ctx.capabilities) return undefined;
      return ctx.capabilities.logging !== undefined
        ? []
        : failing('notifications/message sent without declaring the logging capability', {
            expected: 'capabilities.logging declared',
            actual: Object.keys(ctx.capabilities),
          });
    },
  },
];
