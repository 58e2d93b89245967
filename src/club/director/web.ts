// The director's page: a small node:http server for web/director/ (plain browser JS, no framework), the latest
// snapshot as /snapshot.json, every new snapshot as a Server-Sent Event on /events, and the session exports as
// downloads. The page is private (it shows the hands of every tray), so it binds to the host it is given.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, type Socket, isIP } from 'node:net';
import { readFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebPortError } from '../../web/server.js';
import type { DirectorSnapshot } from '../types.js';
import { type HandScoringApi, handScoringRoutes } from './hand-web.js';
import type { PublicResults } from './public-results.js';
import type { LiveTable } from './live-table.js';
import { renderLiveTableHtml } from './live-table-html.js';
import { RESULTS_CSS, renderResultsHtml } from './results-html.js';
import { tarFolder } from '../exports/tar.js';
import type { ConsoleApi } from './console-api.js';

/** web/director/ beside src/ (and beside dist/ once built): the same three levels up from this file. */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'web', 'director');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml',
};
/** The page loads only its own files and talks only to this server. */
const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

export interface DirectorWebOptions {
  host: string;
  port: number;
  /** The latest snapshot, or null before the first. */
  snapshot(): DirectorSnapshot | null;
  /** Call `fn` on every new snapshot; returns the unsubscribe. */
  subscribe(fn: (s: DirectorSnapshot) => void): () => void;
  /** The exports, served as downloads. */
  exports?: { pbn(): string; usebio(): string; csv(): string };
  /** Seconds between SSE keep-alive comments, so proxies and idle timers keep the stream open (default 15). */
  keepAliveSeconds?: number;
  /**
   * Host names the page may be reached by besides IP addresses, localhost, single-label names ("director") and
   * .local names, e.g. ["director.club.example"]. Any other Host header is refused, so a web page elsewhere cannot
   * rebind its own name to this address and read the hands (DNS rebinding).
   */
  allowedHosts?: string[];
  /** The hand-scored tables' terminal (/hand/), when the session has such tables. */
  hand?: HandScoringApi;
  /** The public results (/results/, /results.json, /export/results.tar): no login, nothing of an unreleased tray. */
  publicResults?: () => PublicResults;
  /** One table's public live view (/results/table/<id>, and .json); null for no such table. */
  liveTable?: (id: string) => LiveTable | null;
  /** The director's console (login, decisions, names) on /api/...; without it the page is read-only. */
  console?: ConsoleApi;
  /** The page opens on the set-up screens (no session runs yet). */
  setup?: boolean;
}

export interface DirectorWeb { url: string; server: Server; close(): Promise<void> }

const DOWNLOADS = {
  '/export/session.pbn': { kind: 'pbn', ext: 'pbn', type: 'application/x-pbn; charset=utf-8' },
  '/export/usebio.xml': { kind: 'usebio', ext: 'xml', type: 'application/xml; charset=utf-8' },
  '/export/travellers.csv': { kind: 'csv', ext: 'csv', type: 'text/csv; charset=utf-8; header=present' },
} as const;

/** Serve the director page (tables × rounds grid, alerts, tray doctor, standings) and its live updates. */
export async function startDirectorWeb(opts: DirectorWebOptions): Promise<DirectorWeb> {
  const streams = new Set<ServerResponse>();
  const hand = opts.hand ? handScoringRoutes(opts.hand, SECURITY_HEADERS) : null;
  const server = createServer((req, res) => {
    serve(req, res, opts, streams, hand).catch((e: Error) => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', `director page: ${e.message}`);
      else res.destroy();
    });
  });
  // Every socket, so close() does not wait for an open page's event stream to time out.
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => { sockets.add(s); s.once('close', () => sockets.delete(s)); });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      reject(e.code === 'EADDRINUSE' || e.code === 'EACCES' ? new WebPortError(opts.host, opts.port, e.code) : e);
    });
    server.listen(opts.port, opts.host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  return {
    server,
    url: `http://${bound.address.includes(':') ? `[${bound.address}]` : bound.address}:${bound.port}/`,
    close: () => new Promise<void>((r) => {
      for (const s of streams) s.end();
      server.close(() => r());
      for (const s of sockets) s.destroy();
    }),
  };
}

async function serve(req: IncomingMessage, res: ServerResponse, opts: DirectorWebOptions, streams: Set<ServerResponse>, hand: ((req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>) | null): Promise<void> {
  if (hand && hostAllowed(hostName(req.headers.host), opts) && await hand(req, res, new URL(req.url ?? '/', 'http://x').pathname)) return;
  const host = hostName(req.headers.host);
  if (!hostAllowed(host, opts)) {
    return send(res, 403, 'text/plain; charset=utf-8', `director page: the host name ${JSON.stringify(host.slice(0, 80))} is not allowed; open the page by its IP address, or add the name to allowedHosts`);
  }
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (opts.publicResults && (path === '/results' || path.startsWith('/results/') || path === '/results.json' || path === '/export/results.tar')) {
    const live = /^\/results\/table\/([^/]+?)(\.json)?$/.exec(path);
    if (live && opts.liveTable) {
      let id: string;
      try {
        id = decodeURIComponent(live[1]);
      } catch {
        return send(res, 400, 'text/plain; charset=utf-8', 'table: the address is not a table id; pick a table on /results/');
      }
      const v = opts.liveTable(id);
      if (!v) return send(res, 404, 'text/plain; charset=utf-8', 'table: no such table in this session; pick one on /results/');
      return live[2] ? send(res, 200, 'application/json', JSON.stringify(v)) : send(res, 200, 'text/html; charset=utf-8', renderLiveTableHtml(v));
    }
    return publicRoute(res, path, opts.publicResults());
  }
  if (opts.console && path.startsWith('/api/')) return opts.console.handle(req, res, path);
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain; charset=utf-8', 'GET only', { allow: 'GET, HEAD' });
  // Browsers ask for /favicon.ico on their own, on every page of this server (the console, /results/, /hand/): the
  // club's icon, web/favicon.svg, the table view's too.
  if (path === '/favicon.ico') return send(res, 200, 'image/svg+xml', await readFile(join(ROOT, '..', 'favicon.svg')), { 'cache-control': 'max-age=86400' });
  if (path === '/snapshot.json') {
    const s = opts.snapshot();
    return send(res, 200, 'application/json', JSON.stringify(s && opts.console ? opts.console.view(req, s) : s));
  }
  if (path === '/info.json') return send(res, 200, 'application/json', JSON.stringify({ exports: opts.exports !== undefined, ...(opts.console ? { console: true } : {}), ...(opts.setup ? { setup: true } : {}) }));
  if (path === '/events') return events(req, res, opts, streams);
  if (path in DOWNLOADS) {
    const d = DOWNLOADS[path as keyof typeof DOWNLOADS];
    if (!opts.exports) return send(res, 404, 'text/plain; charset=utf-8', 'no exports: the director was started without a session to export');
    // The exports hold every tray's hands: not for a reader away from the director's computer who has not signed in.
    if (opts.console && !opts.console.trusted(req)) return send(res, 403, 'text/plain; charset=utf-8', 'exports: sign in as the director to download them');
    const body = opts.exports[d.kind]();
    const session = (opts.snapshot()?.session ?? 'session').replace(/[^\w.-]+/g, '_');
    return send(res, 200, d.type, body, { 'content-disposition': `attachment; filename="${session}.${path === '/export/travellers.csv' ? 'travellers.csv' : d.ext}"` });
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return send(res, 400, 'text/plain; charset=utf-8', 'bad path');
  }
  const file = normalize(join(ROOT, path === '/' ? 'index.html' : decoded));
  if (!file.startsWith(ROOT + sep)) return send(res, 403, 'text/plain; charset=utf-8', 'forbidden');
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return send(res, 404, 'text/plain; charset=utf-8', 'not found');
  }
  send(res, 200, TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream', body);
}

/** The public results: the live page, its stylesheet, the JSON behind it, and the static folder as a tar file. */
function publicRoute(res: ServerResponse, path: string, r: PublicResults): void {
  if (path === '/results') return send(res, 301, 'text/plain; charset=utf-8', 'moved', { location: '/results/' });
  if (path === '/results/') return send(res, 200, 'text/html; charset=utf-8', renderResultsHtml(r, { live: true }));
  if (path === '/results/style.css') return send(res, 200, 'text/css; charset=utf-8', RESULTS_CSS);
  if (path === '/results.json') return send(res, 200, 'application/json', JSON.stringify(r));
  if (path === '/export/results.tar') {
    const dir = `${r.session}-results`.replace(/[^\w.-]+/g, '_');
    const body = tarFolder(dir, new Map([['index.html', renderResultsHtml(r, { live: false })], ['style.css', RESULTS_CSS]]));
    return send(res, 200, 'application/x-tar', body, { 'content-disposition': `attachment; filename="${dir}.tar"` });
  }
  send(res, 404, 'text/plain; charset=utf-8', 'not found');
}

/** The name in a Host header, without its port and brackets, lower case. */
function hostName(header: string | undefined): string {
  const h = (header ?? '').trim().toLowerCase();
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(h);
  if (v6) return v6[1];
  return h.replace(/:\d+$/, '');
}

/** IP literals, localhost, names no public DNS answers for (single label, .local), the bound host and allowedHosts. */
function hostAllowed(host: string, opts: DirectorWebOptions): boolean {
  if (host === '') return false;
  if (isIP(host) !== 0) return true;
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || !host.includes('.')) return true;
  return host === opts.host.toLowerCase() || (opts.allowedHosts ?? []).some((h) => h.toLowerCase() === host);
}

/** Server-Sent Events: the current snapshot at once, then every new one, each as one `snapshot` event. */
function events(req: IncomingMessage, res: ServerResponse, opts: DirectorWebOptions, streams: Set<ServerResponse>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-store', connection: 'keep-alive', ...SECURITY_HEADERS });
  if (req.method === 'HEAD') { res.end(); return; }
  streams.add(res);
  // The browser reconnects after 2 s when the stream drops; the first event then brings it up to date.
  res.write('retry: 2000\n\n');
  // JSON.stringify writes no raw line breaks, so one data line holds the whole snapshot.
  const push = (s: DirectorSnapshot): void => { res.write(`event: snapshot\ndata: ${JSON.stringify(opts.console ? opts.console.view(req, s) : s)}\n\n`); };
  const first = opts.snapshot();
  if (first) push(first);
  const unsubscribe = opts.subscribe(push);
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), (opts.keepAliveSeconds ?? 15) * 1000);
  keepAlive.unref();
  const done = (): void => {
    clearInterval(keepAlive);
    unsubscribe();
    streams.delete(res);
  };
  res.once('close', done);
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-cache', ...SECURITY_HEADERS, ...extra });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
