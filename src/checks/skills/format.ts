// The skill format as the Skills extension reads it: where a skill's name sits in its URI, the Agent Skills naming
// rules, and a SKILL.md's YAML frontmatter. Pure functions: the checks judge what they return.
import { parse } from 'yaml';
import { canonical, isObject } from '../../json.js';

/** Where a skill sits in its SKILL.md URI, or why the URI names no SKILL.md. */
export type SkillPath = { root: string; name: string } | { problem: string };

/**
 * `<scheme>://<skill-path>/SKILL.md`: the skill's root directory (the URI without `/SKILL.md`) and the final
 * segment of its skill path, which must be its name (Resource Mapping).
 */
export function skillPath(uri: string): SkillPath {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)(.*)$/i.exec(uri);
  if (!m) return { problem: 'is not an absolute URI with an authority (scheme://…)' };
  const segments = m[2].split('/');
  if (segments.length < 2 || segments.at(-1) !== 'SKILL.md')
    return { problem: 'does not end in /SKILL.md after a skill path' };
  const name = segments.at(-2)!;
  if (name === '') return { problem: 'has an empty final skill-path segment' };
  return { root: uri.slice(0, -'/SKILL.md'.length), name };
}

/**
 * Why `name` breaks the Agent Skills naming rules (1 to 64 characters, lower-case letters, digits and hyphens, no
 * hyphen first, last or twice in a row), or undefined when it keeps them.
 */
export function nameProblem(name: string): string | undefined {
  if (name.length < 1 || name.length > 64) return `is ${name.length} characters long (1 to 64 allowed)`;
  if (!/^[a-z0-9-]+$/.test(name)) return 'has characters other than lower-case letters, digits and hyphens';
  if (name.startsWith('-') || name.endsWith('-')) return 'starts or ends with a hyphen';
  if (name.includes('--')) return 'has two hyphens in a row';
  return undefined;
}

/** A SKILL.md's frontmatter as a JSON object, or why it has none. */
export type Frontmatter = { value: Record<string, unknown> } | { problem: string };

/** The YAML frontmatter a SKILL.md begins with: between a first line `---` and the next line `---`. */
export function frontmatterOf(text: string): Frontmatter {
  const open = /^---[ \t]*\r?\n/.exec(text);
  if (!open) return { problem: 'does not begin with a --- line (YAML frontmatter)' };
  const rest = text.slice(open[0].length);
  const close = /^---[ \t]*(\r?\n|$)/m.exec(rest);
  if (!close) return { problem: 'opens its frontmatter with --- but never closes it' };
  let value: unknown;
  try {
    value = parse(rest.slice(0, close.index));
  } catch (e) {
    return { problem: `has frontmatter that is not valid YAML (${e instanceof Error ? e.message.split('\n')[0] : e})` };
  }
  if (!isObject(value)) return { problem: 'has frontmatter that is not a YAML mapping' };
  // As JSON: what the entry's frontmatter can carry (dates and other YAML-only types become their JSON form).
  return { value: JSON.parse(JSON.stringify(value)) as Record<string, unknown> };
}

/** The top-level fields in which two objects differ. */
export function differingFields(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => canonical(a[k]) !== canonical(b[k]));
}
