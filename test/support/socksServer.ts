/**
 * A tiny SOCKS5 proxy on 127.0.0.1 for tests (RFC 1928, CONNECT only; RFC 1929 user name and password when asked
 * to demand them). It records every target it was asked to reach and the user name sent, so a test can prove a
 * request really went through it, then pipes the bytes both ways.
 */
import type { AddressInfo, Socket } from 'node:net';
import * as net from 'node:net';

export interface SocksServer {
  url: string;
  port: number;
  /** `host:port` of each CONNECT, with the user name when one was sent. */
  seen: Array<{ target: string; user?: string }>;
  close(): Promise<void>;
}

export async function startSocksServer(options: { credentials?: { user: string; password: string } } = {}): Promise<SocksServer> {
  const seen: SocksServer['seen'] = [];
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  const server = net.createServer((client) => {
    track(client);
    let buffer = Buffer.alloc(0);
    let stage: 'greeting' | 'auth' | 'request' = 'greeting';
    let user: string | undefined;
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (stage === 'greeting') {
        if (buffer.length < 2 || buffer.length < 2 + (buffer[1] as number)) return;
        const methods = [...buffer.subarray(2, 2 + (buffer[1] as number))];
        buffer = buffer.subarray(2 + (buffer[1] as number));
        const wanted = options.credentials ? 0x02 : 0x00;
        if (!methods.includes(wanted)) return void client.end(Buffer.from([0x05, 0xff]));
        client.write(Buffer.from([0x05, wanted]));
        stage = options.credentials ? 'auth' : 'request';
      }
      if (stage === 'auth') {
        const userLength = buffer[1];
        if (userLength === undefined || buffer.length < 3 + userLength) return;
        const passwordLength = buffer[2 + userLength] as number;
        if (buffer.length < 3 + userLength + passwordLength) return;
        user = buffer.subarray(2, 2 + userLength).toString();
        const password = buffer.subarray(3 + userLength, 3 + userLength + passwordLength).toString();
        buffer = buffer.subarray(3 + userLength + passwordLength);
        const ok = user === options.credentials?.user && password === options.credentials?.password;
        client.write(Buffer.from([0x01, ok ? 0x00 : 0x01]));
        if (!ok) return void client.end();
        stage = 'request';
      }
      if (stage === 'request') {
        const target = parseRequest(buffer);
        if (!target) return;
        client.off('data', onData);
        seen.push({ target: `${target.host}:${target.port}`, ...(user ? { user } : {}) });
        const upstream = net.connect(target.port, target.host, () => {
          // Succeeded, bound to 0.0.0.0:0 (the client does not read it).
          client.write(Buffer.from([0x05, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
          const rest = buffer.subarray(target.length);
          if (rest.length) upstream.write(rest);
          upstream.pipe(client);
          client.pipe(upstream);
        });
        track(upstream);
        upstream.on('error', () => client.end(Buffer.from([0x05, 0x05, 0x00, 0x01, 0, 0, 0, 0, 0, 0])));
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      }
    };
    client.on('data', onData);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `socks5://127.0.0.1:${port}`,
    port,
    seen,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** VER CMD RSV ATYP ADDR PORT: the target and the request's length, once it has all arrived. */
function parseRequest(buffer: Buffer): { host: string; port: number; length: number } | undefined {
  if (buffer.length < 5) return undefined;
  const type = buffer[3];
  let host: string;
  let offset: number;
  if (type === 0x01) {
    offset = 8;
    host = [...buffer.subarray(4, 8)].join('.');
  } else if (type === 0x03) {
    offset = 5 + (buffer[4] as number);
    host = buffer.subarray(5, offset).toString();
  } else if (type === 0x04) {
    offset = 20;
    host = (buffer.subarray(4, 20).toString('hex').match(/.{4}/g) ?? []).join(':');
  } else {
    return undefined;
  }
  if (buffer.length < offset + 2) return undefined;
  return { host, port: buffer.readUInt16BE(offset), length: offset + 2 };
}
