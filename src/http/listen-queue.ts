/**
 * How many connections wait in a listening socket's accept queue: completed by the kernel, not
 * yet accepted by the process. Closing the port resets every one of them, so a graceful stop
 * waits for this to reach 0 first.
 *
 * Linux says it in /proc/net/tcp and tcp6: for a socket in state LISTEN (0A) the rx_queue
 * column is the accept queue's length. The row is found by the socket's inode, read from
 * /proc/self/fd, so another process's listener on the same port never counts. Elsewhere (or if
 * /proc is not there) the answer is `undefined` and the caller falls back to watching accepts.
 */
import { readFileSync, statSync } from 'node:fs';
import type { Server } from 'node:net';

const LISTEN = '0A';

/** The socket's file descriptor, where Node has one (a TCP handle on a Unix system). */
function descriptor(server: Server): number | undefined {
  const fd = (server as unknown as { _handle?: { fd?: number } | null })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : undefined;
}

/** Parses the rx_queue of the LISTEN row with this inode in a /proc/net/tcp text. */
export function queuedFromProcTable(table: string, inode: number): number | undefined {
  for (const line of table.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    // sl local rem st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
    if (cols.length < 10 || cols[3] !== LISTEN || Number(cols[9]) !== inode) continue;
    const rx = cols[4]?.split(':')[1];
    return rx === undefined ? undefined : Number.parseInt(rx, 16);
  }
  return undefined;
}

export function queuedConnections(server: Server): number | undefined {
  const fd = descriptor(server);
  if (fd === undefined) return undefined;
  try {
    const inode = statSync(`/proc/self/fd/${fd}`).ino;
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      const n = queuedFromProcTable(readFileSync(table, 'utf8'), inode);
      if (n !== undefined) return n;
    }
  } catch {
    // No /proc (not Linux, or a sandbox without it): the caller watches accepts instead.
  }
  return undefined;
}
