import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isAbsolute, relative } from 'node:path';
import type { ErrorObject } from 'ajv';
import type { Document } from 'yaml';

/** The YAML parser, loaded when there is YAML to parse (a run of only the built-in cases has none, see checks/cases/load.ts). */
const yaml = () => createRequire(import.meta.url)('yaml') as typeof import('yaml');

/** Something the user wrote (a config or baseline file, an option) is wrong. The message is one line naming where and what. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** YAML aliases allowed per file: anchors are fine, alias bombs are not. */
const MAX_ALIASES = 100;
/** Far deeper than any config or case needs; the YAML parser recurses once per level, so a hostile file must stop here. */
const MAX_DEPTH = 200;

/** Offset where the text nests flow collections (`[`, `{`) or block indentation past MAX_DEPTH, if it does. A cheap scan before parsing. */
function tooDeep(text: string): number | undefined {
  let depth = 0;
  let indent = 0;
  let lineStart = true;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      lineStart = true;
      indent = 0;
      continue;
    }
    if (lineStart && c === ' ') {
      if (++indent > MAX_DEPTH) return i;
      continue;
    }
    lineStart = false;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '[' || c === '{') {
      if (++depth > MAX_DEPTH) return i;
    } else if (c === ']' || c === '}') {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

export type YamlPath = (string | number)[];

/** A parsed YAML file that can still say where each of its values is. */
export interface YamlFile {
  /** The path as shown in messages (relative to the working directory). */
  file: string;
  text: string;
  value: unknown;
  /** 1-based first and last line of the node at `path` (or of its nearest ancestor that exists). */
  lines(path: YamlPath): { first: number; last: number };
  /** A ConfigError `file:line:col: field: message` about the node at `path` (pointing at its key with `atKey`). */
  error(path: YamlPath, message: string, atKey?: boolean): ConfigError;
}

/** A path as messages show it: relative to the working directory when inside it. */
export function display(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}

/** `env.FOO`, `[2].id`: a path as the user would name the field. */
export const fieldName = (path: YamlPath) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || '(file)';

/** Reads and parses a YAML file; unreadable files and syntax errors throw a ConfigError naming file, line and column. */
export async function readYamlFile(path: string): Promise<YamlFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `${display(path)}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  return parseYamlText(path, text);
}

/** Parses YAML text read from `path`; syntax errors and alias bombs throw a ConfigError naming file, line and column. */
export function parseYamlText(path: string, text: string): YamlFile {
  const { LineCounter, isMap, parseDocument } = yaml();
  const file = display(path);
  const counter = new LineCounter();
  const deep = tooDeep(text);
  if (deep !== undefined) {
    const line = text.slice(0, deep).split('\n').length;
    throw new ConfigError(
      `${file}:${line}:${deep - text.lastIndexOf('\n', deep - 1)}: nested more than ${MAX_DEPTH} levels deep`,
    );
  }
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => {
    const { line, col } = counter.linePos(offset);
    return `${file}:${line}:${col}`;
  };
  const first = doc.errors[0];
  if (first) throw new ConfigError(`${at(first.pos[0])}: ${first.message.split('\n')[0]}`);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (err) {
    throw new ConfigError(`${file}:1:1: ${(err as Error).message.split('\n')[0]} (at most ${MAX_ALIASES} aliases)`);
  }
  return {
    file,
    text,
    value,
    lines(path) {
      const [start, end] = nodeRange(doc, path, false, isMap);
      const last = counter.linePos(end);
      // A range ends after the node's line break; then the node's last line is the one before.
      return { first: counter.linePos(start).line, last: last.col === 1 && end > start ? last.line - 1 : last.line };
    },
    error: (path, message, atKey = false) =>
      new ConfigError(`${at(nodeRange(doc, path, atKey, isMap)[0])}: ${fieldName(path)}: ${message}`),
  };
}

/** Start and end offsets of the node at `path` (or of its key, first, with `atKey`), else of the key that names it, else of the deepest ancestor that exists. */
function nodeRange(
  doc: Document,
  path: YamlPath,
  atKey: boolean,
  isMap: typeof import('yaml').isMap,
): [number, number] {
  for (let n = path.length; n >= 0; n--) {
    const parent = n > 0 ? doc.getIn(path.slice(0, n - 1), true) : undefined;
    const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
    if (node?.range && !(atKey && n === path.length && isMap(parent))) return [node.range[0], node.range[1]];
    if (isMap(parent)) {
      const key = parent.items.find((p) => (p.key as { value?: unknown } | null)?.value === path[n - 1])?.key as
        | { range?: [number, number] }
        | undefined;
      if (key?.range) return [key.range[0], key.range[1]];
    }
  }
  return [0, 0];
}

/** The one Ajv error worth showing (an unknown key first), as a path and a message in the user's terms; `atKey` when it is about a key. */
export function schemaProblem(errors: readonly ErrorObject[]): { path: YamlPath; message: string; atKey?: boolean } {
  const e = errors.find((x) => x.keyword === 'additionalProperties') ?? errors[0];
  const path: YamlPath = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, '/').replace(/~0/g, '~')));
  const params = e.params as { additionalProperty?: string; missingProperty?: string; allowedValues?: unknown[] };
  if (e.keyword === 'additionalProperties')
    return { path: [...path, params.additionalProperty!], message: 'unknown key', atKey: true };
  if (e.keyword === 'required') return { path, message: `missing required key "${params.missingProperty}"` };
  if (e.keyword === 'enum') return { path, message: `must be one of ${params.allowedValues!.join(', ')}` };
  return { path, message: e.message ?? 'invalid' };
}
