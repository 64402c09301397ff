import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acquireDataDirLock,
  DataDirLocked,
  LOCK_FILE,
  parseProcStat,
} from '../../src/store/data-dir-lock.js';

describe('parseProcStat', () => {
  it('reads state and start time after the command name, whatever it holds', () => {
    const tail = 'S 1 1 1 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 402648 3133440 387';
    expect(parseProcStat(`42 (node) ${tail}`)).toEqual({ state: 'S', start: '402648' });
    expect(parseProcStat(`42 (a) b (c) d) ${tail.replace(/^S/, 'Z')}`)).toEqual({
      state: 'Z',
      start: '402648',
    });
    expect(parseProcStat('42 node S 1')).toBeNull();
    expect(parseProcStat('42 (node) S 1 1')).toBeNull();
  });
});

// A live process that did not take the lock: its PID answers signal 0.
describe.skipIf(process.platform !== 'linux')('a lock naming a live process', () => {
  let other: ChildProcess;
  let dir: string;
  beforeAll(async () => {
    other = spawn('sleep', ['60'], { stdio: 'ignore' });
    await once(other, 'spawn');
    dir = mkdtempSync(join(tmpdir(), 'tracking-lock-unit-'));
  });
  afterAll(() => {
    other.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const plant = (start: string | undefined) =>
    writeFileSync(
      join(dir, LOCK_FILE),
      `${JSON.stringify({ pid: other.pid, host: hostname(), nonce: 'planted', since: 'x', ...(start ? { start } : {}) })}\n`,
    );
  const startOf = (pid: number) => parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'))!.start;

  it('is taken over when the process started at another time (its PID was reused)', () => {
    plant(String(Number(startOf(other.pid!)) - 1));
    const lock = acquireDataDirLock(dir);
    const held = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'));
    expect(held.pid).toBe(process.pid);
    expect(held.start).toBe(startOf(process.pid));
    lock.release();
  });

  it('is respected when it is that process, started when the lock says', () => {
    plant(startOf(other.pid!));
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLocked);
    // A lock written before start times were recorded: the process is running, so it holds.
    plant(undefined);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLocked);
  });
});
