/** Small string helpers shared by the reporters. Nothing here escapes for a format (XML, HTML): each reporter does that. */

/**
 * Characters a terminal may act on or that can disguise text: C0 controls except tab, DEL, C1 controls,
 * bidi overrides and isolates, line and paragraph separators, U+FFFE/U+FFFF, and lone surrogates.
 */
const UNSAFE =
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Replace every unsafe character with a visible escape (`\x1b`, `\u202e`), so a server string cannot drive the terminal. */
export function visible(s: string): string {
  return s.replace(UNSAFE, (c) => {
    const n = c.charCodeAt(0);
    return n < 0x100 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
  });
}

/** At most `max` UTF-16 units of `s`, never ending in half of a surrogate pair. */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, Math.max(0, max));
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** `s` bounded to `max` characters; a shortened string says how long it was. */
export function bounded(s: string, max: number): string {
  return s.length <= max ? s : `${clip(s, max)}… (${s.length} chars)`;
}

/** JSON text of any value (compact, or indented by `indent`); never throws (BigInt, cycles fall back to String). */
export function toJson(value: unknown, indent?: number): string {
  try {
    const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), indent);
    return text ?? String(value);
  } catch {
    return String(value);
  }
}

/** Milliseconds as a short human duration: `850 ms`, `1.23 s`. */
export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '? ms';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** A check id without the revision prefix it has in a report of several runs (`2026-07-28/tools/list` → `tools/list`). */
export const withoutRevision = (id: string): string => id.replace(/^\d{4}-\d\d-\d\d\//, '');

/** `words` joined by spaces into lines of at most `width` characters (a longer word stays whole), each after the first indented by `indent`. */
export function wrap(words: readonly string[], width: number, indent = '  '): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}
