import { createServer } from 'node:net';

/** The setting that names a listener's port, as an operator writes it in the environment. */
export type PortSetting = 'PORT' | 'ADMIN_PORT' | 'CONSOLE_PORT';

/**
 * Marks a listener's error (EADDRINUSE, EACCES, EADDRNOTAVAIL) with the setting of its port, so
 * the start-up message names the right one even when two listeners share a port number.
 */
export function tagWithSetting(err: unknown, setting: PortSetting): unknown {
  if (err && typeof err === 'object') Object.assign(err, { setting });
  return err;
}

/** Runs a listener's `listen`, marking a failure with the setting of its port. */
export async function listenAs<T>(setting: PortSetting, listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (err) {
    throw tagWithSetting(err, setting);
  }
}

/**
 * Fails with the listener's own EADDRINUSE (or EACCES, EADDRNOTAVAIL) error when the port
 * cannot be bound, so a start that would fail at `listen` fails before it creates and migrates
 * a new DATA_DIR (~30 s on a small machine) only to leave it behind. Port 0 always binds.
 */
export async function checkPortFree(
  port: number,
  host: string,
  setting: PortSetting,
): Promise<void> {
  if (port === 0) return;
  await listenAs(
    setting,
    () =>
      new Promise<void>((resolve, reject) => {
        const probe = createServer();
        probe.once('error', reject);
        probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
      }),
  );
}
