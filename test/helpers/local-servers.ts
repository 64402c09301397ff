import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

/**
 * Servers a test file starts on 127.0.0.1 (sites, stalling or refusing
 * services), closed with their open connections after the file.
 */
export function useLocalServers() {
  const servers: Server[] = [];
  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });
  /** Listens on a free port; answers the base URL. */
  return async function listen(server: Server | RequestListener): Promise<string> {
    const s = server instanceof Function ? createServer(server) : server;
    servers.push(s);
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  };
}

/** A base URL nothing listens on: a stopped service. */
export async function stoppedServiceUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  await new Promise((resolve) => s.close(resolve));
  return url;
}
