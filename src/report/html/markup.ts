import { visible } from '../text.js';

/** A fragment of HTML that is already safe: only `html` and `raw` make one. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** What a template may interpolate: safe fragments as they are, strings and numbers escaped, nothing for absent values. */
export type Fragment = Html | string | number | readonly Fragment[] | undefined | null | false;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escape for HTML text and for quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function render(value: Fragment): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  // Every string is treated as hostile: characters that can disguise text made visible, then markup escaped.
  return escapeHtml(visible(String(value)));
}

/**
 * Tagged template that escapes every interpolated value unless it is already `Html`, so forgetting to escape
 * a server string is impossible. Attribute values must be written inside double quotes in the template.
 */
export function html(strings: TemplateStringsArray, ...values: Fragment[]): Html {
  return new Html(strings.reduce((out, s, i) => out + render(values[i - 1]) + s));
}

/** Trusted markup, for the page's own static assets only. */
export function raw(s: string): Html {
  return new Html(s);
}

/** The URL when it is http(s), else undefined: a `javascript:` or `data:` link from a report is shown as text. */
export function safeHref(url: string): string | undefined {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** JSON for a `<script type="application/json">` block: `<` escaped, so no string can close the element. */
export function scriptJson(value: unknown): Html {
  return new Html(JSON.stringify(value).replace(/</g, '\\u003c'));
}

/**
 * A self-contained page's start, up to its body: only the given stylesheet (and the script the CSP names) may style or
 * run, nothing loads from anywhere, and no referrer leaves. `meta` goes before the title.
 */
export function pageHead(csp: string, style: string, title: Fragment, meta: Fragment = ''): Html {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
${meta}<title>${title}</title>
<style>${raw(style)}</style>
</head>`;
}
