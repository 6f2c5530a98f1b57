// How a check names the requirement it exercises, and how that link reads in the revision under test.
import type { Level, Requirement } from '../../schema/generated/report.js';
import { STATELESS_REVISION } from '../../schema/revisions.js';

const MCP = 'https://modelcontextprotocol.io/specification';

/**
 * Builds a requirement. `link` is a page of the MCP specification with its anchor (`basic#responses`), in `revision`'s
 * pages, or a whole URL (an extension's specification, an RFC).
 */
export function requirement(
  id: string,
  level: Level,
  link: string,
  text: string,
  revision = '2025-11-25',
): Requirement {
  return { id, level, spec: /^https?:\/\//.test(link) ? link : `${MCP}/${revision}/${link}`, text };
}

const SPEC = /^https:\/\/modelcontextprotocol\.io\/specification\/(\d{4}-\d\d-\d\d)\/([^#]*)(#.*)?$/;

/** Pages that 2026-07-28 moved: [page, anchor or '' for any] → its page and anchor there. */
const MOVED_07: [RegExp, (anchor: string) => string][] = [
  [/^basic\/(?:transports|lifecycle)#stdio$/, () => 'basic/transports/stdio'],
  [/^basic\/transports(?=#|$)/, (anchor) => `basic/transports/streamable-http${anchor}`],
  [/^basic\/lifecycle#version-negotiation$/, () => 'basic/versioning#protocol-version-negotiation'],
  [/^basic\/utilities\/cancellation(?=#|$)/, () => 'basic/patterns/cancellation'],
];

/**
 * The requirement as the revision under test states it: its spec link points at that revision's page (2026-07-28
 * moved some). Links outside the MCP specification (RFCs, JSON-RPC) stay.
 */
export function citing(req: Requirement, revision: string): Requirement {
  const m = SPEC.exec(req.spec);
  if (!m || m[1] === revision) return req;
  let page = `${m[2]}${m[3] ?? ''}`;
  if (revision === STATELESS_REVISION) {
    const moved = MOVED_07.find(([from]) => from.test(page));
    if (moved) page = moved[1](m[3] ?? '');
  }
  return { ...req, spec: `${MCP}/${revision}/${page}` };
}
