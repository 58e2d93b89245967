// mqtt.connect for a plain TCP broker without mqtt.js's other transports, for the table feed and the director.
// Its own module so that the director gets it without loading the feed.
import { createRequire } from 'node:module';
import { createConnection } from 'node:net';
import type { IClientOptions, MqttClient } from 'mqtt';

const requireCjs = createRequire(import.meta.url);
/** A plain TCP broker URL (no credentials, path or query in it, no IPv6 brackets): host and port. */
const PLAIN_TCP_URL = /^(?:mqtt|tcp):\/\/([A-Za-z0-9_.-]+)(?::([0-9]{1,5}))?\/?$/;

/**
 * mqtt.connect(url, options), without loading what a plain TCP connection does not use. mqtt.js's entry loads its
 * WebSocket, SOCKS and TLS transports (ws, socks, ip-address...) whatever the URL: about 30 ms of the daemon's start.
 * For mqtt://host:port without a SOCKS proxy this builds the client as mqtt.connect does (the same options, a plain
 * net connection per attempt); any other URL goes through mqtt.connect itself.
 */
export function connectMqtt(url: string, options: IClientOptions): MqttClient {
  const m = PLAIN_TCP_URL.exec(url);
  if (!m || process.env.MQTTJS_SOCKS_PROXY || (options.cert && options.key)) {
    return (requireCjs('mqtt') as { connect(url: string, o: IClientOptions): MqttClient }).connect(url, options);
  }
  const Client = (requireCjs('mqtt/lib/client') as { default: new (build: (c: MqttClient) => unknown, o: IClientOptions) => MqttClient }).default;
  const host = m[1];
  const port = m[2] !== undefined ? Number(m[2]) : 1883;
  const opts: IClientOptions = { host, hostname: host, port, protocol: 'mqtt', query: {}, ...options, defaultProtocol: 'mqtt' } as IClientOptions;
  const client = new Client(() => createConnection({ port: opts.port ?? port, host: opts.hostname ?? host }), opts);
  // As mqtt.connect does: errors are reported to the listeners the feed adds; none must throw meanwhile.
  client.on('error', () => {});
  return client;
}
