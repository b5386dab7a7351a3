// The live dashboard: one HTTP server on loopback serving the page (inline script and style, nothing from
// the network) and a WebSocket stream of the runs' progress. Every request needs the random token that
// is printed in the URL; a slow page is dropped rather than buffered without bound.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import { Playback } from './playback.js';
import { parseClientCommand, type ServerMessage, type SourceUpdate, type WireMatrixProgress } from './protocol.js';
import type { DashboardSource } from './source.js';
import { renderDashboardPage } from './page/html.js';

export interface DashboardOptions {
  readonly sources: readonly DashboardSource[];
  /** 0 or absent: a random free port. */
  readonly port?: number;
  /** A loopback address; default 127.0.0.1. */
  readonly host?: string;
  readonly title?: string;
  /** Simulated seconds per wall second; default: the longest recorded run plays in about 20 s. */
  readonly speed?: number;
  readonly paused?: boolean;
  /** How often changes are coalesced and sent; default 50 ms. */
  readonly batchIntervalMs?: number;
  /** A page whose socket holds more unsent bytes than this is dropped; default 8 MiB. */
  readonly maxBufferedBytes?: number;
  /** Commands longer than this get an error reply; default 1 KiB. */
  readonly maxMessageBytes?: number;
  /** Frames longer than this close the socket (ws maxPayload, code 1009); default 64 KiB. */
  readonly maxPayloadBytes?: number;
}

export interface DashboardStats {
  clients: number;
  droppedSlowClients: number;
  /** HTTP requests refused (403). */
  rejectedRequests: number;
  /** WebSocket upgrades refused. */
  rejectedUpgrades: number;
  rejectedCommands: number;
  batchesSent: number;
  eventsStreamed: number;
}

export interface Dashboard {
  /** The page's address, token included. */
  readonly url: string;
  readonly token: string;
  readonly port: number;
  readonly stats: Readonly<DashboardStats>;
  readonly playback: Playback;
  /** Shows `message` on the page instead of the charts (e.g. inputs that no longer parse). */
  showError(message: string): void;
  /** Shows new runs (e.g. after a good edit): clears any error and starts their playback at time 0. */
  replaceSources(sources: readonly DashboardSource[]): void;
  /** Shows `source` in chart `index` (one past the last adds a chart), leaving the other charts be. */
  setSource(index: number, source: DashboardSource): void;
  /** Shows an experiment's progress above the charts; sent with the next batch (calls in between coalesce). */
  showMatrix(matrix: WireMatrixProgress): void;
  close(): Promise<void>;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

function sameToken(given: string | null, token: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A request's target as a URL; undefined when it does not parse (a request line such as `GET //[ HTTP/1.1`,
 * which Node's HTTP parser lets through): refused, where an exception would end the whole process.
 */
function targetOf(req: IncomingMessage): URL | undefined {
  try {
    return new URL(req.url ?? '/', 'http://placeholder');
  } catch {
    return undefined;
  }
}

export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.test(host)) throw new Error(`the dashboard listens on loopback only; '${host}' is not a loopback address`);
  const token = randomBytes(24).toString('base64url');
  const batchIntervalMs = options.batchIntervalMs ?? 50;
  const maxBufferedBytes = options.maxBufferedBytes ?? 8 * 1024 * 1024;
  const maxMessageBytes = options.maxMessageBytes ?? 1024;
  const title = options.title ?? 'gridsweep dashboard';
  const playback = new Playback(options.sources, { ...(options.speed !== undefined ? { speed: options.speed } : {}), paused: options.paused ?? false });
  const stats: DashboardStats = { clients: 0, droppedSlowClients: 0, rejectedRequests: 0, rejectedUpgrades: 0, rejectedCommands: 0, batchesSent: 0, eventsStreamed: 0 };
  const clients = new Set<WebSocket>();
  let parseError: string | null = null;
  let matrix: WireMatrixProgress | null = null;
  let matrixChanged = false;
  let port = 0;
  let lastTickMs = Date.now();

  /** Host header check (against DNS rebinding) and token check; null when the request may pass. */
  function refusal(req: IncomingMessage, url: URL): string | null {
    const hostHeader = req.headers.host ?? '';
    const hostName = hostHeader.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
    if (!LOOPBACK.test(hostName)) return 'bad Host header';
    if (!sameToken(url.searchParams.get('token'), token)) return 'missing or wrong token';
    return null;
  }

  function handleHttp(req: IncomingMessage, res: ServerResponse): void {
    const url = targetOf(req);
    if (url === undefined) {
      stats.rejectedRequests++;
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('400 Bad Request: the request target is not a URL path.\n');
      return;
    }
    const refused = refusal(req, url);
    if (refused) {
      stats.rejectedRequests++;
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(`403 Forbidden: ${refused}. Open the URL the dashboard printed, token included.\n`);
      return;
    }
    if (req.method !== 'GET' || url.pathname !== '/') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 Not Found\n');
      return;
    }
    const nonce = randomBytes(16).toString('base64');
    const wsOrigin = `ws://${req.headers.host}`;
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src ${wsOrigin}; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    });
    res.end(renderDashboardPage({ nonce, title }));
  }

  const server = createServer(handleHttp);
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes ?? 64 * 1024 });

  function send(ws: WebSocket, text: string): void {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > maxBufferedBytes) {
      stats.droppedSlowClients++;
      clients.delete(ws);
      stats.clients = clients.size;
      ws.terminate();
      return;
    }
    ws.send(text);
  }

  function broadcast(message: ServerMessage): void {
    if (clients.size === 0) return;
    const text = JSON.stringify(message);
    for (const ws of clients) send(ws, text);
  }

  function greet(ws: WebSocket): void {
    send(ws, JSON.stringify({ type: 'hello', generation: playback.generation, title, sources: playback.infos(), clock: playback.clock() } satisfies ServerMessage));
    for (const s of playback.snapshots()) send(ws, JSON.stringify({ type: 'snapshot', generation: playback.generation, ...s } satisfies ServerMessage));
    if (parseError !== null) send(ws, JSON.stringify({ type: 'parse-error', message: parseError } satisfies ServerMessage));
    if (matrix !== null) send(ws, JSON.stringify({ type: 'matrix', matrix } satisfies ServerMessage));
  }

  function sendBatch(result: { updates: SourceUpdate[]; events: number } | null, force = false): void {
    if (!result && !force) return;
    stats.eventsStreamed += result?.events ?? 0;
    if (clients.size > 0) stats.batchesSent++;
    broadcast({ type: 'batch', generation: playback.generation, clock: playback.clock(), updates: result?.updates ?? [] });
  }

  function reply(ws: WebSocket, message: string): void {
    stats.rejectedCommands++;
    send(ws, JSON.stringify({ type: 'error', message } satisfies ServerMessage));
  }

  function handleCommand(ws: WebSocket, data: RawData, isBinary: boolean): void {
    const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer | ArrayBuffer).byteLength;
    if (isBinary) return reply(ws, 'binary messages are not accepted; send JSON text');
    if (size > maxMessageBytes) return reply(ws, `message too long (${size} bytes; at most ${maxMessageBytes})`);
    const command = parseClientCommand(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data as ArrayBuffer)]).toString('utf8'));
    if ('error' in command) return reply(ws, command.error);
    switch (command.cmd) {
      case 'pause':
        playback.paused = true;
        return sendBatch(null, true);
      case 'resume':
        playback.paused = false;
        lastTickMs = Date.now();
        return sendBatch(null, true);
      case 'speed':
        playback.setSpeed(command.value);
        return sendBatch(null, true);
      case 'step':
        return sendBatch(playback.step(), true);
      case 'restart':
        playback.restart();
        for (const c of clients) greet(c);
        return;
    }
  }

  wss.on('connection', (ws) => {
    clients.add(ws);
    stats.clients = clients.size;
    ws.on('message', (data, isBinary) => handleCommand(ws, data, isBinary));
    // A frame above maxPayload makes ws close the socket with code 1009; the error must not escape.
    ws.on('error', () => clients.delete(ws));
    ws.on('close', () => {
      clients.delete(ws);
      stats.clients = clients.size;
    });
    greet(ws);
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = targetOf(req);
    const origin = req.headers.origin;
    const badOrigin = origin !== undefined && origin !== `http://${req.headers.host}`;
    if (url === undefined || refusal(req, url) !== null || url.pathname !== '/ws' || badOrigin) {
      stats.rejectedUpgrades++;
      socket.on('error', () => undefined);
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  lastTickMs = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    const dt = (now - lastTickMs) / 1000;
    lastTickMs = now;
    sendBatch(playback.tick(dt));
    if (matrixChanged && matrix !== null) {
      matrixChanged = false;
      broadcast({ type: 'matrix', matrix });
    }
  }, batchIntervalMs);

  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}/?token=${token}`,
    token,
    port,
    stats,
    playback,
    showError(message) {
      parseError = message;
      broadcast({ type: 'parse-error', message });
    },
    replaceSources(sources) {
      parseError = null;
      playback.load(sources);
      lastTickMs = Date.now();
      for (const c of clients) greet(c);
    },
    setSource(index, source) {
      const player = playback.setSource(index, source);
      broadcast({ type: 'source', generation: playback.generation, source: index, info: player.info() });
    },
    showMatrix(progress) {
      matrix = progress;
      matrixChanged = true;
    },
    async close() {
      clearInterval(timer);
      for (const ws of clients) ws.terminate();
      clients.clear();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
