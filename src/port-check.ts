import { createServer } from 'node:net';

/**
 * Fails with the listener's own EADDRINUSE (or EACCES, EADDRNOTAVAIL) error when the port
 * cannot be bound, so a start that would fail at `listen` fails before it creates and migrates
 * a new DATA_DIR (~30 s on a small machine) only to leave it behind. Port 0 always binds.
 */
export async function checkPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
