import type { TranscriptEntry } from '../schema/generated/report.js';

/** Frames longer than this are kept as a prefix plus their byte count. */
export const FRAME_TEXT_CAP = 4096;

/** Every frame of one session, in order: what was sent, received, written to stderr, and process events. */
export class Transcript {
  readonly entries: TranscriptEntry[] = [];
  private readonly start = performance.now();

  add(dir: TranscriptEntry['dir'], text: string, bytes = Buffer.byteLength(text)): TranscriptEntry {
    const entry: TranscriptEntry = {
      seq: this.entries.length,
      dir,
      t: Math.round((performance.now() - this.start) * 10) / 10,
      bytes,
      text: text.length > FRAME_TEXT_CAP ? text.slice(0, FRAME_TEXT_CAP) : text,
    };
    if (text.length > FRAME_TEXT_CAP) entry.truncated = true;
    this.entries.push(entry);
    return entry;
  }

  /** Entries from seq `from` (inclusive) to `to` (exclusive), for a check's excerpt. */
  slice(from: number, to = this.entries.length): TranscriptEntry[] {
    return this.entries.slice(from, to);
  }

  get length(): number {
    return this.entries.length;
  }
}
