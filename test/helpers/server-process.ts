import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  apiUrl: string;
  adminUrl: string;
  /** Everything the server logged, for failure messages. */
  output(): string;
  /**
   * The log from `from` on, once it matches `pattern`: the server writes its
   * log in blocks at least every 100 ms (src/logger.ts), so a line may arrive
   * a little after the request that caused it. Throws after `timeoutMs`.
   */
  waitForOutput(pattern: RegExp, from?: number, timeoutMs?: number): Promise<string>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * Runs src/server.ts in a child process on free ports (PORT=0) and resolves
 * once both listeners are up, reading their addresses from the log.
 */
export async function startServer(
  env: Record<string, string>,
  o: { cwd?: string } = {},
): Promise<ServerProcess> {
  // Absolute paths, so the server may run in another working directory (its `.env`).
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, join(ROOT, 'src/server.ts')], {
    cwd: o.cwd ?? ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      ADMIN_PORT: '0',
      CONSOLE_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const listening: string[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      for (const m of chunk
        .toString()
        .matchAll(/(?:public|admin) API listening at (http:\/\/[^" ]+)/g))
        listening.push(m[1]!);
      if (listening.length >= 2) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => {
      log += c.toString();
    });
    child.once('exit', (code) =>
      reject(new Error(`server exited (${code}) before listening:\n${log}`)),
    );
  });
  // Generous: on a loaded two-core machine a cold start has taken over a minute.
  const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
  await ready.finally(() => clearTimeout(timer));
  // The public API listens first (src/server.ts), then the admin API.
  return {
    child,
    apiUrl: listening[0]!,
    adminUrl: listening[1]!,
    output: () => log,
    async waitForOutput(pattern, from = 0, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(log.slice(from))) {
        if (Date.now() > deadline) throw new Error(`no ${pattern} in the log:\n${log.slice(from)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return log.slice(from);
    },
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}

export async function post(url: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}
