// A WebSocket client for tests: collects the server's messages and waits for the ones a test expects.
import WebSocket from 'ws';
import type { ServerMessage } from '../../src/dashboard/protocol.js';

export class TestClient {
  readonly messages: ServerMessage[] = [];
  private waiters: (() => void)[] = [];
  closeCode: number | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)) as ServerMessage);
      this.wake();
    });
    ws.on('close', (code) => {
      this.closeCode = code;
      this.wake();
    });
    ws.on('error', () => undefined);
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  static wsUrl(pageUrl: string): string {
    const u = new URL(pageUrl);
    return `ws://${u.host}/ws${u.search}`;
  }

  static async open(pageUrl: string, init?: { headers?: Record<string, string> }): Promise<TestClient> {
    const ws = new WebSocket(TestClient.wsUrl(pageUrl), init);
    const client = new TestClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    return client;
  }

  /** Waits until `pred` holds for the messages so far (or the socket closes, or `timeoutMs` passes). */
  async until(pred: (messages: readonly ServerMessage[]) => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.messages)) {
      if (this.closeCode !== null) throw new Error(`socket closed (${this.closeCode}) before the expected messages`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for messages');
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async closed(timeoutMs = 10_000): Promise<number> {
    await this.until(() => false, timeoutMs).catch(() => undefined);
    if (this.closeCode === null) throw new Error('socket still open');
    return this.closeCode;
  }

  close(): void {
    this.ws.terminate();
  }
}
