import { createHash } from 'node:crypto';
import type { TranscriptEntry } from '../schema/generated/report.js';

/** Frames longer than this are kept as a prefix plus their byte count and hash. */
export const FRAME_TEXT_CAP = 4096;
/** Frames and stderr lines kept per session; later ones (a flooding server) are counted, not kept. Events are always kept. */
export const MAX_ENTRIES = 10_000;

/** The first 16 hex digits of a SHA-256: enough to tell two large frames apart. */
const shortHash = (data: string | Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 16);

/** Every frame of one session, in order: what was sent, received, written to stderr, and process events. */
export class Transcript {
  readonly entries: TranscriptEntry[] = [];
  private readonly start = performance.now();
  private next = 0;
  private dropped = 0;

  /** `sha256` is the hash of a frame the caller already cut (only a prefix of it is in `text`). */
  add(dir: TranscriptEntry['dir'], text: string, bytes = Buffer.byteLength(text), sha256?: string): TranscriptEntry {
    const cut = text.length > FRAME_TEXT_CAP;
    const entry: TranscriptEntry = {
      seq: this.next++,
      dir,
      t: Math.round((performance.now() - this.start) * 10) / 10,
      bytes,
      // A copy, not a slice: V8 slices keep the whole (maybe huge) frame alive.
      text: cut ? Buffer.from(text.slice(0, FRAME_TEXT_CAP)).toString() : text,
    };
    if (cut || sha256) {
      entry.truncated = true;
      entry.sha256 = sha256 ?? shortHash(text);
    }
    if (dir === 'event' || this.entries.length < MAX_ENTRIES) this.entries.push(entry);
    else if (this.dropped++ === 0) this.add('event', `transcript full: frames from #${entry.seq} on are counted, not kept`);
    return entry;
  }

  /** Kept entries from seq `from` (inclusive) to `to` (exclusive), for a check's excerpt. */
  slice(from: number, to = this.next): TranscriptEntry[] {
    // Index and seq agree until the first entry was dropped.
    if (this.dropped === 0) return this.entries.slice(from, to);
    return this.entries.filter((e) => e.seq >= from && e.seq < to);
  }

  /** The seq the next entry gets. */
  get length(): number {
    return this.next;
  }
}
