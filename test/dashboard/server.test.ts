import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startDashboard, type Dashboard } from '../../src/dashboard/server.js';
import { LiveRecordSource } from '../../src/dashboard/source.js';
import type { ServerMessage, SourceUpdate } from '../../src/dashboard/protocol.js';
import { countSubtasks, syntheticRun } from '../fixtures/records/synthetic-run.js';
import { TestClient } from './ws-client.js';

const events = syntheticRun({ seed: 4 });
const counts = countSubtasks(events);
let dashboard: Dashboard | null = null;
const clients: TestClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await dashboard?.close();
  dashboard = null;
});

async function start(options: Partial<Parameters<typeof startDashboard>[0]> = {}): Promise<Dashboard> {
  dashboard = await startDashboard({ sources: [{ name: 'run', events }], ...options });
  return dashboard;
}

async function open(url: string): Promise<TestClient> {
  const c = await TestClient.open(url);
  clients.push(c);
  return c;
}

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    // agent: false, not the global keep-alive agent: a later test's dashboard may get the same port, and a
    // socket kept from an earlier one would then fail with 'socket hang up'.
    const req = request(url, { headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const errors = (ms: readonly ServerMessage[]) => ms.filter((m): m is Extract<ServerMessage, { type: 'error' }> => m.type === 'error');
function totals(ms: readonly ServerMessage[]): { starts: number; ends: number } {
  const t = { starts: 0, ends: 0 };
  const add = (u: SourceUpdate) => {
    t.starts += u.starts.length;
    t.ends += u.ends.length;
  };
  for (const m of ms) {
    if (m.type === 'snapshot') add(m);
    if (m.type === 'batch') m.updates.forEach(add);
  }
  return t;
}

describe('dashboard server: access', () => {
  it('prints a loopback URL with a random token and serves the page with a strict CSP', async () => {
    const d = await start();
    expect(d.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
    const other = await startDashboard({ sources: [] });
    expect(other.token).not.toBe(d.token);
    await other.close();
    const res = await get(d.url);
    expect(res.status).toBe(200);
    expect(res.body).toContain('<main id="charts">');
    expect(res.body).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet|https?:\/\/(?!www\.w3\.org)/);
    expect(String(res.headers['content-security-policy'])).toMatch(/default-src 'none'; script-src 'nonce-[^']+'/);
  });

  it('refuses HTTP requests without the right token or with a foreign Host (403)', async () => {
    const d = await start();
    const base = d.url.split('?')[0]!;
    // One character off; the token is random, so its last character may already be the one written here.
    const offByOne = d.token.slice(0, -1) + (d.token.endsWith('x') ? 'y' : 'x');
    expect((await get(base)).status).toBe(403);
    expect((await get(`${base}?token=${offByOne}`)).status).toBe(403);
    expect((await get(d.url, { host: 'evil.example:80' })).status).toBe(403);
    expect((await get(d.url.replace('/?', '/nothing?'))).status).toBe(404);
    expect(d.stats.rejectedRequests).toBe(3);
  });

  it('refuses WebSocket upgrades without the token, on another path or from another origin', async () => {
    const d = await start();
    const base = d.url.split('?')[0]!;
    await expect(TestClient.open(base)).rejects.toThrow(/403|socket hang up|ECONNRESET/);
    await expect(TestClient.open(`${base}?token=wrong`)).rejects.toThrow(/403|socket hang up|ECONNRESET/);
    await expect(TestClient.open(d.url, { headers: { origin: 'http://evil.example' } })).rejects.toThrow(/403|socket hang up|ECONNRESET/);
    expect(d.stats.rejectedUpgrades).toBe(3);
    const ok = await open(d.url);
    await ok.until((ms) => ms.some((m) => m.type === 'hello'));
  });

  it('answers a request line whose target is not a URL path with 400 (or 403 for an upgrade), and stays up', async () => {
    // `//[` gets through Node's HTTP parser but not through new URL(): it used to throw out of the request
    // handler and end the whole process (a real run with --dashboard included), token or not.
    const d = await start();
    const raw = (text: string): Promise<string> =>
      new Promise((resolve, reject) => {
        const socket = connect(Number(new URL(d.url).port), '127.0.0.1', () => socket.write(text));
        let answer = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (answer += chunk));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const plain = await raw('GET //[ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(plain.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    const upgrade = await raw('GET //[ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n');
    expect(upgrade.split('\r\n')[0]).toBe('HTTP/1.1 403 Forbidden');
    expect(d.stats.rejectedRequests).toBe(1);
    expect(d.stats.rejectedUpgrades).toBe(1);
    expect((await get(d.url)).status).toBe(200);
  });

  it('listens on loopback only', async () => {
    await expect(startDashboard({ sources: [], host: '0.0.0.0' })).rejects.toThrow(/loopback only/);
  });
});

describe('dashboard server: stream', () => {
  it('streams every sub-task start and end of a run in coalesced batches', async () => {
    const d = await start({ speed: 1e9, paused: true });
    const c = await open(d.url);
    await c.until((ms) => ms.some((m) => m.type === 'snapshot'));
    c.ws.send(JSON.stringify({ cmd: 'resume' }));
    await c.until((ms) => ms.some((m) => m.type === 'batch' && m.clock.finished));
    expect(totals(c.messages)).toEqual({ starts: counts.all, ends: counts.all });
    const batches = c.messages.filter((m) => m.type === 'batch').length;
    expect(batches).toBeLessThan(20);
  });

  it('gives a late joiner a snapshot of the state so far, then the stream', async () => {
    // Paused until the first page resumes, so that the run ends while that page watches: a run that ended
    // before it joined would send it no batch at all.
    const d = await start({ speed: 1e9, paused: true });
    const first = await open(d.url);
    first.ws.send(JSON.stringify({ cmd: 'resume' }));
    await first.until((ms) => ms.some((m) => m.type === 'batch' && m.clock.finished));
    const late = await open(d.url);
    await late.until((ms) => ms.some((m) => m.type === 'snapshot'));
    const hello = late.messages[0]!;
    const snap = late.messages.find((m) => m.type === 'snapshot')!;
    expect(hello.type === 'hello' && hello.clock.finished).toBe(true);
    expect(snap.type === 'snapshot' && snap.starts.length).toBe(counts.all);
    expect(snap.type === 'snapshot' && snap.resources.length).toBe(15);
    expect(snap.type === 'snapshot' && snap.summary.done).toBe(199);
  });

  it('obeys pause, resume, speed and step commands and tells every page', async () => {
    const d = await start({ speed: 10, paused: true });
    const a = await open(d.url);
    const b = await open(d.url);
    // Paused at 0, the first tick shows the events at time 0 (in b's snapshot or in a batch); wait for it, or
    // a step sent before it would show them instead of moving the clock.
    await b.until((ms) => totals(ms).starts > 0);
    const [, t1, t2] = [...new Set(events.map((e) => e.t))];
    a.ws.send(JSON.stringify({ cmd: 'step' }));
    a.ws.send(JSON.stringify({ cmd: 'step' }));
    await b.until((ms) => ms.some((m) => m.type === 'batch' && m.clock.timeS === t2));
    const stepped = b.messages.filter((m) => m.type === 'batch' && m.clock.timeS > 0);
    expect(stepped.map((m) => m.type === 'batch' && m.clock.timeS)).toEqual([t1, t2]);
    expect(stepped.every((m) => m.type === 'batch' && m.clock.paused)).toBe(true);
    a.ws.send(JSON.stringify({ cmd: 'speed', value: 250 }));
    await b.until((ms) => ms.some((m) => m.type === 'batch' && m.clock.speed === 250));
    a.ws.send(JSON.stringify({ cmd: 'resume' }));
    await b.until((ms) => ms.some((m) => m.type === 'batch' && !m.clock.paused && m.clock.timeS > t2!));
    // The step batches were paused and later than t1 too: only a paused batch after the resume answers the pause.
    const resumedAt = b.messages.findIndex((m) => m.type === 'batch' && !m.clock.paused);
    a.ws.send(JSON.stringify({ cmd: 'pause' }));
    await b.until((ms) => ms.slice(resumedAt + 1).some((m) => m.type === 'batch' && m.clock.paused));
    expect(d.playback.paused).toBe(true);
  });

  it('answers malformed, unknown, binary and too-long commands with an error and stays up', async () => {
    const d = await start();
    const c = await open(d.url);
    c.ws.send('this is not json');
    c.ws.send(JSON.stringify({ cmd: 'fly' }));
    c.ws.send(JSON.stringify({ cmd: 'speed', value: -3 }));
    c.ws.send(JSON.stringify([1, 2]));
    c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    c.ws.send(JSON.stringify({ cmd: 'pause', pad: 'x'.repeat(5000) }));
    await c.until((ms) => errors(ms).length === 6);
    const texts = errors(c.messages).map((m) => m.message);
    expect(texts[0]).toMatch(/^not JSON/);
    expect(texts[1]).toMatch(/^unknown command "fly"/);
    expect(texts[2]).toMatch(/^speed takes a value/);
    expect(texts[3]).toMatch(/expected a JSON object/);
    expect(texts[4]).toMatch(/binary messages are not accepted/);
    expect(texts[5]).toMatch(/message too long \(\d+ bytes; at most 1024\)/);
    expect(d.stats.rejectedCommands).toBe(6);
    c.ws.send(JSON.stringify({ cmd: 'pause' }));
    await c.until((ms) => ms.some((m) => m.type === 'batch' && m.clock.paused));
  });

  it('closes a socket that sends a frame above maxPayload (1009) and keeps serving others', async () => {
    const d = await start({ maxPayloadBytes: 16 * 1024 });
    const c = await open(d.url);
    c.ws.send('x'.repeat(20 * 1024));
    expect(await c.closed()).toBe(1009);
    const again = await open(d.url);
    await again.until((ms) => ms.some((m) => m.type === 'hello'));
    expect((await get(d.url)).status).toBe(200);
  });

  it('drops a page that does not read, instead of buffering without bound', async () => {
    // Many hosts make every batch carry a large summary, so an unread socket fills up quickly.
    const wide = syntheticRun({ seed: 9, clusters: 60, hostsPerCluster: 25, works: 1500, hostFailures: [] });
    const live = new LiveRecordSource('live');
    const d = await start({ sources: [live], batchIntervalMs: 10, maxBufferedBytes: 256 * 1024 });
    const c = await open(d.url);
    (c.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    let i = 0;
    while (d.stats.droppedSlowClients === 0) {
      if (i < wide.length) live.sink(wide[i++]!);
      else live.sink({ type: 'sched', t: wide[wide.length - 1]!.t, call: 'sched_noop' });
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(d.stats.droppedSlowClients).toBe(1);
    expect(d.stats.clients).toBe(0);
    const fresh = await open(d.url);
    await fresh.until((ms) => ms.some((m) => m.type === 'snapshot'));
  });
});
