// The browser table view's HTTP server: the static page, the mqtt.js browser bundle, and /config.json that
// tells the page which broker, club and table to follow.
import { createServer, type Server, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TerminalApi } from './terminal-api.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml' };

export interface WebViewOptions {
  port?: number;
  host?: string;
  club: string;
  table: string;
  base?: string;
  /** The broker's WebSocket URL as the browser must use it; a path such as "/mqtt" means this server. */
  wsUrl: string;
  /** The table terminal's API (/terminal/api/); without it the terminal's calls are answered 404. */
  terminal?: TerminalApi;
  /** Config `feed.analysis`: the page follows the spectator-only `analysis` topic and shows its panel. */
  analysis?: boolean;
}

export interface WebView {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** The view's port is taken (EADDRINUSE) or forbidden (EACCES): a sentence naming the setting and the fix. */
export class WebPortError extends Error {
  /** Logged as this sentence alone: the stack of a busy port helps nobody. */
  readonly expected = true;
  constructor(readonly host: string, readonly port: number, readonly code: string) {
    super(code === 'EADDRINUSE'
      ? `http.port: ${host}:${port} is already in use (another tenace, or another web server): stop that program, or set http.port (tenace simulate: --http-port) to a free port; 0 picks one`
      : `http.port: this user may not listen on ${host}:${port} (${code}): ports below 1024 need privileges, so use a port such as 8080`);
    this.name = 'WebPortError';
  }
}

/** Serve the table view. */
export async function startWebView(opts: WebViewOptions): Promise<WebView> {
  const mqttBundle = join(dirname(createRequire(import.meta.url).resolve('mqtt/package.json')), 'dist', 'mqtt.min.js');
  const config = JSON.stringify({ club: opts.club, table: opts.table, base: opts.base ?? 'tenace', wsUrl: opts.wsUrl, analysis: opts.analysis === true });
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    // The terminal's calls act for the table; everything else here is read-only (GET).
    if (path.startsWith('/terminal/api/') && opts.terminal) {
      opts.terminal.handle(req, res, path).catch(() => { if (!res.headersSent) send(res, 500, 'text/plain', 'terminal error'); else res.end(); });
      return;
    }
    void serve(req, res, config, mqttBundle);
  });
  // Every socket, upgraded ones included: an open page's MQTT WebSocket would otherwise hold close() until it times out.
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => { sockets.add(s); s.once('close', () => sockets.delete(s)); });
  const host = opts.host ?? '127.0.0.1';
  const port = opts.port ?? 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      reject(e.code === 'EADDRINUSE' || e.code === 'EACCES' ? new WebPortError(host, port, e.code) : e);
    });
    server.listen(port, host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  return {
    server,
    url: `http://${bound.address.includes(':') ? `[${bound.address}]` : bound.address}:${bound.port}/`,
    close: () => new Promise<void>((r) => {
      server.close(() => r());
      for (const s of sockets) s.destroy();
    }),
  };
}

async function serve(req: IncomingMessage, res: ServerResponse, config: string, mqttBundle: string): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'GET only');
  if (path === '/config.json') return send(res, 200, TYPES['.json'], config);
  // Browsers ask for /favicon.ico on their own: the table view and the terminal have the club's icon (web/favicon.svg).
  const page = path === '/' ? '/index.html' : path === '/terminal' || path === '/terminal/' ? '/terminal/index.html' : path === '/favicon.ico' ? '/favicon.svg' : path;
  const file = path === '/mqtt.min.js' ? mqttBundle : join(ROOT, normalize(page));
  if (!file.startsWith(ROOT) && file !== mqttBundle) return send(res, 403, 'text/plain', 'forbidden');
  try {
    const body = await readFile(file);
    send(res, 200, TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream', body);
  } catch {
    send(res, 404, 'text/plain', 'not found');
  }
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-cache' });
  res.end(body);
}
