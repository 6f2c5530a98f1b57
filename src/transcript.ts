import { createHash } from 'node:crypto';
import type { TranscriptEntry } from './schema/generated/report.js';
import { prefixCopy } from './json.js';

/** Frames longer than this are kept as a prefix plus their byte count and hash. */
export const FRAME_TEXT_CAP = 4096;
/**
 * Frames and stderr lines kept per session: the first HEAD_ENTRIES and the last TAIL_ENTRIES. Those in between (a
 * flooding server) are counted, not kept. Events are always kept.
 */
export const HEAD_ENTRIES = 250;
export const TAIL_ENTRIES = 250;

/** The first 16 hex digits of a SHA-256: enough to tell two large frames apart. */
export const shortHash = (data: string | Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 16);

/** Every frame of one session, in order: what was sent, received, written to stderr, and process events. */
export class Transcript {
  /** Events, and the frames until the head is full, in order. */
  private readonly kept: TranscriptEntry[] = [];
  private headFrames = 0;
  /** The last frames after the head, a ring: `ring[next % TAIL_ENTRIES]` is the oldest once it is full. */
  private readonly ring: TranscriptEntry[] = [];
  private readonly start = performance.now();
  private next = 0;
  private dropped = 0;
  private marker: TranscriptEntry | undefined;

  /** `sha256` is the hash of a frame the caller already cut (only a prefix of it is in `text`). */
  add(dir: TranscriptEntry['dir'], text: string, bytes = Buffer.byteLength(text), sha256?: string): TranscriptEntry {
    const cut = text.length > FRAME_TEXT_CAP;
    const entry: TranscriptEntry = {
      seq: this.next++,
      dir,
      t: Math.round((performance.now() - this.start) * 10) / 10,
      bytes,
      text: cut ? prefixCopy(text, FRAME_TEXT_CAP) : text,
    };
    if (cut || sha256) {
      entry.truncated = true;
      entry.sha256 = sha256 ?? shortHash(text);
    }
    if (dir === 'event') this.kept.push(entry);
    else if (this.headFrames < HEAD_ENTRIES) {
      this.headFrames++;
      this.kept.push(entry);
    } else if (this.ring.length < TAIL_ENTRIES) this.ring.push(entry);
    else {
      this.ring[this.dropped++ % TAIL_ENTRIES] = entry;
      if (!this.marker) {
        this.add('event', 'transcript full');
        this.marker = this.kept.at(-1);
      }
    }
    return entry;
  }

  /** The kept entries in order; when frames were dropped, an event says how many. */
  get entries(): TranscriptEntry[] {
    if (this.ring.length === 0) return this.kept;
    if (this.marker)
      this.marker.text = `transcript full: ${this.dropped} frames after the first ${HEAD_ENTRIES} and before the last ${TAIL_ENTRIES} were counted, not kept`;
    return [...this.kept, ...this.ring].sort((a, b) => a.seq - b.seq);
  }

  /** Kept entries from seq `from` (inclusive) to `to` (exclusive), for a check's excerpt. */
  slice(from: number, to = this.next): TranscriptEntry[] {
    // Index and seq agree while every entry is in `kept`.
    if (this.ring.length === 0) return this.kept.slice(from, to);
    return this.entries.filter((e) => e.seq >= from && e.seq < to);
  }

  /** The seq the next entry gets. */
  get length(): number {
    return this.next;
  }
}
