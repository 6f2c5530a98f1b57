import type { Transcript } from '../transcript.js';
import { LaunchError } from '../target/launch-error.js';
import { HttpTransport, type HttpTarget } from './http-base.js';
import { failure, mediaType, send } from './http-client.js';
import { describeHeaders, redactUrl } from './secrets.js';
import type { SseEvent } from './sse-parser.js';

/**
 * The HTTP+SSE transport of 2024-11-05: a GET opens an SSE stream whose first event, `endpoint`, names
 * where to POST messages; every answer comes on that stream. The session ends when the stream closes.
 */
export class LegacySseTransport extends HttpTransport {
  readonly kind = 'sse';
  protected readonly repliesOnPost = false;
  private endpoint: URL | undefined;
  private announced!: (endpoint: URL | undefined) => void;

  private constructor(target: HttpTarget, transcript: Transcript) {
    super(target, transcript);
    const headers = Object.keys(target.headers).length > 0 ? `; headers ${describeHeaders(target.headers)}` : '';
    this.note(`legacy HTTP+SSE ${redactUrl(String(target.url))}${headers}`);
  }

  /** Opens the SSE stream and waits up to `waitMs` for its endpoint event; a LaunchError when none comes. */
  static async open(target: HttpTarget, transcript: Transcript, waitMs: number): Promise<LegacySseTransport> {
    const t = new LegacySseTransport(target, transcript);
    const endpoint = new Promise<URL | undefined>((resolve) => (t.announced = resolve));
    void t.listen();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
    const url = await Promise.race([endpoint, late]).finally(() => clearTimeout(timer));
    if (url) return t;
    await t.close();
    throw new LaunchError(
      `GET ${redactUrl(String(target.url))} gave no SSE endpoint event within ${waitMs} ms (legacy HTTP+SSE)`,
      String(target.url),
    );
  }

  protected postUrl(): URL {
    return this.endpoint!;
  }

  protected sessionHeaders(): Record<string, string> {
    return this.target.headers;
  }

  protected onHead(): void {}

  protected onControlEvent(event: SseEvent): boolean {
    if (event.type !== 'endpoint') return false;
    if (this.endpoint === undefined) {
      this.endpoint = new URL(event.data.trim(), this.target.url);
      this.announced(this.endpoint);
    }
    return true;
  }

  /** Closing the stream is how a legacy session ends. */
  protected async end(): Promise<void> {
    this.announced(undefined);
  }

  private async listen(): Promise<void> {
    try {
      const res = await send({
        method: 'GET',
        url: this.target.url,
        headers: { Accept: 'text/event-stream', ...this.target.headers },
        agent: this.agent,
      });
      this.note(this.describe('GET', res));
      if (res.statusCode === 200 && mediaType(res) === 'text/event-stream') await this.readStream(res);
      else res.resume();
    } catch (err) {
      if (!this.closed) this.note(`GET failed: ${failure(err)}`);
    }
    this.announced(undefined);
    if (this.closed) return;
    this.note('SSE stream ended by the server');
    this.lost();
  }
}
