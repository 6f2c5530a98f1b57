import type { TranscriptEntry } from '../schema/generated/report.js';
import { clip } from './text.js';

const MARK: Record<TranscriptEntry['dir'], string> = { send: '→', recv: '←', stderr: '!', event: '·' };

export interface TranscriptFormat {
  /** Show only the last N entries (an opening line counts the hidden ones). */
  last?: number;
  /** Cut each entry's text to this many characters. */
  maxText?: number;
}

/**
 * One entry as one line: `#3 +12.5 ms → {"jsonrpc":…}`. Line breaks inside the text become `⏎` so an entry
 * can never pose as another; a shortened text ends with `… (N bytes)`, and a frame cut when recorded with the start
 * of its SHA-256 too (the whole frame is not kept anywhere). Returns plain text: the caller escapes it.
 */
export function formatEntry(entry: TranscriptEntry, maxText = Infinity): string {
  const text = entry.text.replace(/\r\n|\r|\n/g, '⏎');
  const cut = text.length > maxText;
  const more =
    entry.truncated || cut ? ` … (${entry.bytes} bytes${entry.sha256 ? `, sha256 ${entry.sha256}` : ''})` : '';
  const t = Number.isFinite(entry.t) ? Math.round(entry.t * 10) / 10 : '?';
  return `#${entry.seq} +${t} ms ${MARK[entry.dir] ?? '?'} ${cut ? clip(text, maxText) : text}${more}`;
}

/** Entries as lines, optionally only the last few (then the first line says how many were left out). */
export function formatTranscript(entries: readonly TranscriptEntry[] = [], options: TranscriptFormat = {}): string[] {
  const shown = entries.slice(Math.max(0, entries.length - (options.last ?? entries.length)));
  const lines = shown.map((entry) => formatEntry(entry, options.maxText));
  const hidden = entries.length - shown.length;
  if (hidden > 0) lines.unshift(`… ${hidden} earlier entr${hidden === 1 ? 'y' : 'ies'}`);
  return lines;
}
