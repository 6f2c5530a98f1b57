import { LISTS } from '../../discovery/discover.js';
import type { Item, ServerProfile } from '../../discovery/profile.js';
import { standsForUri } from '../../generate/schema-arbitrary.js';

/** Placeholder for required string arguments: any server must accept some string. */
const PLACEHOLDER = 'conformance';
/** The placeholder of an argument that stands for a URI: a server may use it as one (embed it as a resource's `uri`). */
const URI_PLACEHOLDER = 'https://example.com/conformance';

/** A required prompt argument's placeholder (arguments have no schema: a URI where it stands for one). */
function placeholderFor(a: Item): string {
  return standsForUri(a) ? URI_PLACEHOLDER : PLACEHOLDER;
}

/** A name that is certainly not among `items` (deterministic, so runs are comparable). */
function unlistedName(base: string, items: Item[]): string {
  const names = new Set(items.map((i) => i.name));
  let name = base;
  for (let n = 2; names.has(name); n++) name = `${base}-${n}`;
  return name;
}

const args = (p: Item) => (Array.isArray(p.arguments) ? (p.arguments as Item[]) : []);

/** A list with named sub-lists, so cases can say `tools.readOnly[0]`. */
function list<T>(items: T[], facts: Record<string, T[]> = {}): T[] & Record<string, T[]> {
  return Object.assign([...items], facts);
}

/**
 * What cases may refer to as `{{ … }}` and in `requires.profile` / `forEach.in`: the profile's lists,
 * named subsets of them, derived values (placeholder arguments, template variables) and safe unknown names.
 */
export function profileView(p: ServerProfile): Record<string, unknown> {
  const prompts = p.prompts.map((prompt) => {
    const required = args(prompt).filter((a) => a.required === true);
    return {
      ...prompt,
      placeholderArguments: Object.fromEntries(required.map((a) => [String(a.name), placeholderFor(a)])),
      firstArgument: args(prompt)[0],
    };
  });
  const templates = p.resourceTemplates.map((t) => ({
    ...t,
    firstVariable:
      typeof t.uriTemplate === 'string' ? /\{[+#./;?&]?([A-Za-z0-9_]+)/.exec(t.uriTemplate)?.[1] : undefined,
  }));
  const unknownToolName = unlistedName('conformance-unknown-tool', p.tools);
  const unknownPromptName = unlistedName('conformance-unknown-prompt', p.prompts);
  const unknownResourceUri = 'mcp-conformance://does-not-exist/resource';
  const declared = (path: string) =>
    path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], p.capabilities);
  // Methods of each capability, with params that are valid apart from the capability being absent.
  const byCapability: [string, string, unknown][] = [
    ['tools', 'tools/list', {}],
    ['tools', 'tools/call', { name: unknownToolName, arguments: {} }],
    ['resources', 'resources/list', {}],
    ['resources', 'resources/templates/list', {}],
    ['resources', 'resources/read', { uri: unknownResourceUri }],
    ['resources.subscribe', 'resources/subscribe', { uri: unknownResourceUri }],
    ['prompts', 'prompts/list', {}],
    ['prompts', 'prompts/get', { name: unknownPromptName }],
    [
      'completions',
      'completion/complete',
      { ref: { type: 'ref/prompt', name: unknownPromptName }, argument: { name: 'a', value: '' } },
    ],
    ['logging', 'logging/setLevel', { level: 'info' }],
  ];
  return {
    protocolVersion: p.protocolVersion,
    revision: p.revision,
    capabilities: p.capabilities,
    serverInfo: p.serverInfo,
    tools: list(p.tools, {
      readOnly: p.tools.filter((t) => (t.annotations as Item | undefined)?.readOnlyHint === true),
    }),
    resources: p.resources,
    resourceTemplates: list(templates, { withVariable: templates.filter((t) => t.firstVariable !== undefined) }),
    prompts: list(prompts, {
      withArguments: prompts.filter((x) => x.firstArgument !== undefined),
      withRequiredArguments: prompts.filter((x) => Object.keys(x.placeholderArguments).length > 0),
    }),
    lists: LISTS.filter((l) => p.capabilities[l.capability] !== undefined),
    undeclaredMethods: byCapability.filter(([cap]) => !declared(cap)).map(([, method, params]) => ({ method, params })),
    unknownToolName,
    unknownPromptName,
    unknownResourceUri,
  };
}
