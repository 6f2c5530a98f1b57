/** A check-id glob (`tools/**`, `*` within one segment) as a RegExp over whole ids. */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}

/** Whether --only (any glob, when given) and --skip (none) select a check id. */
export const selects = (id: string, only?: readonly string[], skip?: readonly string[]): boolean =>
  (!only?.length || only.some((g) => globToRegExp(g).test(id))) && !skip?.some((g) => globToRegExp(g).test(id));

/** What --help and errors say of a glob's stars. */
export const GLOB_RULE = '`*` stays within one segment of an id and does not cross `/`; `**` does';

/**
 * The ids (or globs over them) nearest to a glob that matches none of `ids`, best first: the same glob with `**`
 * for `*` when that matches (`cancellation/*` where ids have three segments), then by edit distance.
 */
export function nearestIds(glob: string, ids: readonly string[], count = 3): string[] {
  const wider = glob.replace(/\*+/g, '**');
  if (wider !== glob && ids.some((id) => globToRegExp(wider).test(id))) return [wider];
  const bare = glob.replace(/\/?\*+/g, '');
  // An id, and each of its areas as a glob (`tools/call/**`), so a misspelt area is answered with an area.
  const candidates = new Set(
    ids.flatMap((id) =>
      id.split('/').map((_, i, parts) => (i === parts.length - 1 ? id : `${parts.slice(0, i + 1).join('/')}/**`)),
    ),
  );
  const scored = [...candidates].map((c) => ({ c, d: distance(bare, c.replace(/\/\*\*$/, '')) }));
  return scored
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
    .slice(0, count)
    .map((s) => s.c);
}

/** The name of `names` nearest to `name` by edit distance (the first of equals). */
export const nearestName = (name: string, names: readonly string[]): string | undefined =>
  names.reduce<string | undefined>(
    (best, n) => (best === undefined || distance(name, n) < distance(name, best) ? n : best),
    undefined,
  );

/** Levenshtein distance. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}
