/**
 * A tiny HTTP proxy on 127.0.0.1 for tests: it tunnels CONNECT (what undici's ProxyAgent sends, for http and https
 * targets alike) and forwards absolute-form requests (`GET http://host/path`). It records what it was asked, and can
 * demand Basic credentials (answering 407 without them), so a test can prove a request really went through it.
 */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as net from 'node:net';

export interface ProxiedRequest {
  /** `CONNECT` or the method of a forwarded request. */
  method: string;
  /** `host:port` for CONNECT, the absolute URL otherwise. */
  target: string;
  /** The Proxy-Authorization header, when one was sent. */
  proxyAuthorization?: string;
  /** What the proxy answered: 200 (tunnel open / forwarded), 407, or 502 (target unreachable). */
  status: number;
}

export interface ProxyServer {
  url: string;
  port: number;
  seen: ProxiedRequest[];
  close(): Promise<void>;
}

interface ProxyOptions {
  /** `user:password` the proxy demands (Basic); without it, it lets everyone through. */
  credentials?: string;
}

export async function startProxyServer(options: ProxyOptions = {}): Promise<ProxyServer> {
  const seen: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const expected = options.credentials ? `Basic ${Buffer.from(options.credentials).toString('base64')}` : undefined;
  const authorized = (header: string | undefined) => expected === undefined || header === expected;

  const server = http.createServer((req, res) => {
    const proxyAuthorization = req.headers['proxy-authorization'];
    const record: ProxiedRequest = { method: req.method ?? '', target: req.url ?? '', proxyAuthorization, status: 200 };
    seen.push(record);
    if (!authorized(proxyAuthorization)) {
      record.status = 407;
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test proxy"' }).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = http.request(req.url ?? '', { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      record.status = 502;
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  });

  server.on('connect', (req: http.IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const proxyAuthorization = req.headers['proxy-authorization'];
    const record: ProxiedRequest = { method: 'CONNECT', target: req.url ?? '', proxyAuthorization, status: 200 };
    seen.push(record);
    if (!authorized(proxyAuthorization)) {
      record.status = 407;
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test proxy"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const [host, port] = splitHostPort(req.url ?? '');
    const upstream = net.connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => {
      record.status = 502;
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    });
    client.on('close', () => upstream.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function splitHostPort(target: string): [string, number] {
  const index = target.lastIndexOf(':');
  const host = target.slice(0, index).replace(/^\[|\]$/g, '');
  return [host, Number(target.slice(index + 1))];
}
