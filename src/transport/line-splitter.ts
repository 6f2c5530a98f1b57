import { createHash, type Hash } from 'node:crypto';

/** One line cut from a byte stream. `data` is the whole line, or only its prefix when `overflow`; the receiver owns it (and may drop it once decoded). */
export interface RawLine {
  data: Buffer;
  /** Bytes in the line, without the newline. */
  bytes: number;
  overflow: boolean;
  /** When `overflow`: the first 16 hex digits of the SHA-256 of the whole line, hashed as it streamed by. */
  sha256?: string;
  /** The stream ended without a newline after this line. */
  partial: boolean;
}

/** Splits a byte stream on \n without decoding chunks; memory per line is bounded by maxBytes. */
export class LineSplitter {
  private parts: Buffer[] = [];
  private kept = 0;
  private total = 0;
  private hash: Hash | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly prefixBytes: number,
    private readonly emit: (line: RawLine) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) {
        this.append(chunk.subarray(start));
        return;
      }
      this.append(chunk.subarray(start, nl));
      this.flush(false);
      start = nl + 1;
    }
  }

  /** Bytes kept of the line in progress (0 between lines). */
  get pending(): number {
    return this.kept;
  }

  /** End of stream: a pending partial line is emitted. */
  end(): void {
    if (this.total > 0) this.flush(true);
  }

  private append(piece: Buffer): void {
    if (piece.length === 0) return;
    this.total += piece.length;
    if (this.total <= this.maxBytes) {
      this.parts.push(piece);
      this.kept += piece.length;
      return;
    }
    // Over the limit: hash the rest as it passes, and keep a copied prefix only, so the chunks can be garbage-collected.
    if (!this.hash) {
      this.hash = createHash('sha256');
      for (const part of this.parts) this.hash.update(part);
    }
    this.hash.update(piece);
    if (this.kept > this.prefixBytes || this.parts.length > 1) {
      // Copies only the prefix (Buffer.concat's length argument truncates), not the megabytes kept so far.
      this.parts = [Buffer.concat(this.parts, Math.min(this.kept, this.prefixBytes))];
      this.kept = this.parts[0]!.length;
    }
    if (this.kept < this.prefixBytes) {
      const extra = Buffer.from(piece.subarray(0, this.prefixBytes - this.kept));
      this.parts.push(extra);
      this.kept += extra.length;
    }
  }

  private flush(partial: boolean): void {
    // The line is taken in a call of its own: no frame below the receiver still holds its chunks, so a collection the
    // receiver asks for can free them.
    this.emit(this.take(partial));
  }

  private take(partial: boolean): RawLine {
    const line: RawLine = {
      data: this.parts.length === 1 ? this.parts[0]! : join(this.parts, this.kept),
      bytes: this.total,
      overflow: this.total > this.maxBytes,
      partial,
    };
    if (this.hash) line.sha256 = this.hash.digest('hex').slice(0, 16);
    this.hash = undefined;
    this.parts = [];
    this.kept = 0;
    this.total = 0;
    return line;
  }
}

/** A joined line from this size on is copied into a buffer of at least MAPPED_BYTES. */
const LARGE_JOIN_BYTES = 1024 * 1024;
/**
 * glibc's malloc gives a request this large a mapping of its own and unmaps it when freed (its dynamic mmap threshold
 * never passes 32 MiB), and only the pages written become resident. Freeing a smaller mapped block instead raises that
 * threshold to the block's size: every later large line then comes from the heap, whose freed memory the process keeps
 * (about 20 MB more peak RSS on bench/wide-frames.mjs). Other allocators map untouched pages lazily as well.
 */
const MAPPED_BYTES = 32 * 1024 * 1024;

function join(parts: Buffer[], bytes: number): Buffer {
  if (bytes < LARGE_JOIN_BYTES) return Buffer.concat(parts, bytes);
  const out = Buffer.allocUnsafeSlow(Math.max(bytes, MAPPED_BYTES)).subarray(0, bytes);
  let at = 0;
  for (const part of parts) at += part.copy(out, at);
  return out;
}
