import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** A clean environment: only PATH and what the test passes, never this process's settings. */
export function childEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env };
}

/** Runs a command to its end (or kills it after `timeoutMs`) and collects its output. */
export async function runToEnd(
  command: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<Finished> {
  const started = Date.now();
  const child = spawn(command, args, {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  return { code, signal, stdout, stderr, ms: Date.now() - started };
}

/** `node --import tsx <entry>`: the TypeScript sources, as the test suite runs them. */
export function tsxArgs(entry: string): string[] {
  return ['--import', 'tsx', entry];
}

/**
 * `node dist/<entry>.js`, absolute: the service's entry `entry` (src/server.ts, src/worker.ts…)
 * as `npm start` runs it, compiled from the same sources by the run's global setup
 * (test/helpers/global-setup.ts, scripts/ensure-build.mjs). A process started so is listening
 * seconds sooner than under tsx, which compiles and resolves every module again at each start.
 */
export function builtArgs(entry: string): string[] {
  return [join(ROOT, 'dist', entry.replace(/\.ts$/, '.js'))];
}

/** True when something accepts TCP connections on the port. */
export async function listening(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await once(child, 'exit');
}

/** A TCP port free on 127.0.0.1 a moment ago, for a child process that must be told its port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * What deploy/Containerfile's last stage copies into /app: [what, where] (`where` relative to
 * /app; `what` is a path in this checkout, or in the build stage's /app for a --from copy).
 */
export function imageCopies(): [string, string][] {
  const file = readFileSync(join(ROOT, 'deploy/Containerfile'), 'utf8');
  const last = file.slice(file.lastIndexOf('\nFROM '));
  return [...last.matchAll(/^COPY (?:--from=\S+ )?(\S+) (\S+)$/gm)].map(([, src, dest]) => [
    src!.replace(/^\/app\//, ''),
    dest === './' ? src! : dest!.replace(/^\.\//, ''),
  ]);
}
