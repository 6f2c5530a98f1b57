/** A check-id glob (`tools/**`, `*` within one segment) as a RegExp over whole ids. */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}
