/** Listens on a free 127.0.0.1 port and closes with every open socket destroyed (test servers only). */
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

interface Listening {
  port: number;
  close(): Promise<void>;
}

export async function listenOnLoopback(server: Server): Promise<Listening> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close() {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections?.();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
