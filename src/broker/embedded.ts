// The embedded default broker for the demo (`tenace simulate` without --broker): aedes on TCP, and MQTT over
// WebSocket for the browser view. Tests that check broker behaviour use a real Mosquitto instead.
import { createServer as createNetServer, type Server as NetServer, type AddressInfo } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { Aedes } from 'aedes';
import { WebSocketServer, createWebSocketStream } from 'ws';

export interface EmbeddedBroker {
  /** mqtt://host:port for the daemon and other TCP clients. */
  url: string;
  port: number;
  /** Attach MQTT over WebSocket at `path` of an HTTP server (the browser view's). */
  attachWebSocket(http: HttpServer, path?: string): void;
  close(): Promise<void>;
}

/** Start aedes on a TCP port (0 for any free port) bound to `host`. */
export async function startEmbeddedBroker(opts: { port?: number; host?: string } = {}): Promise<EmbeddedBroker> {
  const host = opts.host ?? '127.0.0.1';
  const broker = await Aedes.createBroker();
  const tcp: NetServer = createNetServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (tcp.address() as AddressInfo).port;
  const sockets: WebSocketServer[] = [];
  return {
    url: `mqtt://${host}:${port}`,
    port,
    attachWebSocket(http, path = '/mqtt') {
      const wss = new WebSocketServer({ server: http, path });
      wss.on('connection', (ws) => broker.handle(createWebSocketStream(ws) as never));
      sockets.push(wss);
    },
    async close() {
      for (const w of sockets) {
        for (const c of w.clients) c.terminate();
        await new Promise<void>((r) => w.close(() => r()));
      }
      await new Promise<void>((r) => tcp.close(() => r()));
      await new Promise<void>((r) => broker.close(() => r()));
    },
  };
}
