// A TCP relay in front of a port (the sandbox's gRPC port) that can be stopped and started again on
// the same port: while it is stopped, connections to it are refused, which is what the editor sees
// when the sandbox process dies and comes back, without losing the sandbox's data.
import { connect, createServer } from 'node:net';

export class Relay {
  /** @param {{ host: string, port: number }} target */
  constructor(target) {
    this.target = target;
    this.port = 0;
    this.server = undefined;
    this.sockets = new Set();
  }

  /** Listens on 127.0.0.1 (a free port the first time, the same port afterwards). */
  async start() {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.port = server.address().port;
    this.server = server;
  }

  /** Drops every open connection and stops listening: new connections are refused. */
  async stop() {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise((resolve) => server.close(() => resolve()));
  }

  get address() {
    return `127.0.0.1:${this.port}`;
  }
}

/** A relay in front of `hostPort` ("127.0.0.1:1234"), already listening. */
export async function startRelay(hostPort) {
  const i = hostPort.lastIndexOf(':');
  const relay = new Relay({ host: hostPort.slice(0, i).replace(/^\[|\]$/g, ''), port: Number(hostPort.slice(i + 1)) });
  await relay.start();
  return relay;
}
