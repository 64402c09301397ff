import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { join } from 'node:path';
import type { Message, Usage } from './usage.js';

const root = join(import.meta.dirname, '..');
/** Children run compiled, as `npm start` runs the service: tsx would add ~70 MB of RSS. */
export const compiledBench = join(root, 'dist/bench');

/** Compiles src and bench into dist/ (bench/tsconfig.json). */
export function compileChildren(): void {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'bench/tsconfig.json')],
    { stdio: 'inherit' },
  );
}

const live = new Set<ChildProcess>();
// A parent that dies on an exception must not leave a server holding the data directory.
process.on('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

/**
 * A bench child (bench/server.ts or bench/direct.ts, compiled), talking over
 * IPC. Its stdout (request logs) goes to /dev/null so the parent spends no CPU
 * reading it; its stderr is kept for error reports.
 */
export class Child {
  private stderr = '';
  private readonly waiting: { type: string; resolve(m: Message): void }[] = [];
  private exited: string | null = null;

  private constructor(private readonly proc: ChildProcess) {
    proc.stderr?.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    proc.on('message', (m: Message) => {
      const i = this.waiting.findIndex((w) => w.type === m.type);
      if (i >= 0) this.waiting.splice(i, 1)[0]!.resolve(m);
    });
    proc.on('exit', (code, signal) => {
      live.delete(proc);
      this.exited = `exited (${signal ?? code})`;
    });
  }

  static start(script: string, env: Record<string, string>): Child {
    const proc = fork(join(compiledBench, script), [], {
      env: { ...process.env, ...env },
      // For experiments (e.g. V8 memory flags); empty for the committed results.
      execArgv: process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    live.add(proc);
    return new Child(proc);
  }

  /** The next message of this type; rejects when the child dies first. */
  next<T extends Message>(type: string, timeoutMs = 120_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const fail = (why: string) => reject(new Error(`child ${why}: ${this.stderr.trim()}`));
      if (this.exited) return fail(this.exited);
      const timer = setTimeout(() => fail(`sent no ${type} in ${timeoutMs} ms`), timeoutMs);
      const onExit = () => {
        clearTimeout(timer);
        fail(this.exited ?? 'exited');
      };
      this.proc.once('exit', onExit);
      this.waiting.push({
        type,
        resolve: (m) => {
          clearTimeout(timer);
          this.proc.off('exit', onExit);
          resolve(m as T);
        },
      });
    });
  }

  ask<T extends Message>(msg: Message, replyType: string, timeoutMs?: number): Promise<T> {
    const reply = this.next<T>(replyType, timeoutMs);
    this.proc.send(msg);
    return reply;
  }

  /** Closes the child cleanly and returns its final usage. */
  async stop(): Promise<Usage> {
    const done = await this.ask<Message & Usage>({ type: 'stop' }, 'stopped', 30_000);
    await new Promise<void>((resolve) => {
      if (this.exited) resolve();
      else this.proc.once('exit', () => resolve());
    });
    return { maxRssKb: done.maxRssKb, cpuMicros: done.cpuMicros, outcomes: done.outcomes };
  }

  kill(): void {
    if (!this.exited) this.proc.kill('SIGKILL');
  }
}
