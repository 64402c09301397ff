import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * One owner per data directory (PGlite is a single-process database: two
 * processes on one DATA_DIR each work on their own copy and lose each other's
 * writes).
 *
 * Why a PID file and not proper-lockfile: proper-lockfile declares a lock
 * stale when its mtime has not been refreshed for `stale` ms, but PGlite runs
 * in WebAssembly on the main thread, so a long migration or query stalls the
 * refresh timer and the lock would be taken away from a live owner. It also
 * keeps no PID, which the message to the operator must name. Here liveness is
 * asked of the kernel, so a lock left by a SIGKILLed process is recognised at
 * once and never blocks the next start.
 *
 * Signal 0 alone is not enough: it succeeds on a zombie (a killed process
 * whose parent has not reaped it yet, which in a container whose PID 1 reaps
 * slowly lasts long enough to refuse a supervisor's restart) and on a PID the
 * kernel has since given to another process. Where there is a /proc (Linux),
 * the holder is alive only when /proc/<pid>/stat shows it running (not `Z`
 * or `X`) with the start time the lock recorded, in this boot.
 */
export const LOCK_FILE = '.tracking.lock';

interface Holder {
  pid: number;
  host: string;
  nonce: string;
  since: string;
  /** The holder's start time, clock ticks after boot (/proc/<pid>/stat field 22), where known. */
  start?: string;
  /** The boot it started in (/proc/sys/kernel/random/boot_id), where known. */
  boot?: string;
}

export interface ProcState {
  /** One letter: R running, S sleeping, D disk wait, T stopped, Z zombie, X dead… */
  state: string;
  /** Clock ticks after boot at which the process started. */
  start: string;
}

/**
 * A process's state and start time from the text of /proc/<pid>/stat:
 * `pid (comm) state ppid … starttime …`. The command name may hold spaces
 * and parentheses, so the fields are counted from its last `)`.
 */
export function parseProcStat(text: string): ProcState | null {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const fields = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // fields[0] is field 3 (state); starttime is field 22.
  const state = fields[0];
  const start = fields[19];
  if (!state || !start || !/^\d+$/.test(start)) return null;
  return { state, start };
}

/** undefined: this system has no /proc to ask; null: no such process. */
function procState(pid: number): ProcState | null | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    return hasProc() ? null : undefined;
  }
}

let procChecked: boolean | undefined;
function hasProc(): boolean {
  if (procChecked === undefined) {
    try {
      readFileSync('/proc/self/stat', 'utf8');
      procChecked = true;
    } catch {
      procChecked = false;
    }
  }
  return procChecked;
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

export class DataDirLocked extends Error {
  constructor(
    readonly dir: string,
    readonly holder: Holder,
  ) {
    const where =
      holder.host === hostname() ? `PID ${holder.pid}` : `PID ${holder.pid} on host ${holder.host}`;
    super(
      `DATA_DIR ${dir} is in use by ${where} (since ${holder.since}); ` +
        'stop that process first (on the embedded store the server runs the dispatch worker and migrations itself)',
    );
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

function readHolder(file: string): Holder | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    if (typeof parsed.pid !== 'number') return null;
    return {
      pid: parsed.pid,
      host: String(parsed.host ?? ''),
      nonce: String(parsed.nonce ?? ''),
      since: String(parsed.since ?? 'unknown'),
      ...(typeof parsed.start === 'string' ? { start: parsed.start } : {}),
      ...(typeof parsed.boot === 'string' ? { boot: parsed.boot } : {}),
    };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    // Half-written or garbage: a process died between create and write.
    return { pid: 0, host: hostname(), nonce: '', since: 'unknown' };
  }
}

/**
 * Alive when the kernel runs the process that took the lock. Our own PID
 * counts as dead: a container restarted on the same volume runs as PID 1
 * again. A holder on another host (a shared volume) cannot be checked, so it
 * is taken as alive.
 */
export function holderAlive(holder: Holder): boolean {
  if (holder.host !== hostname()) return true;
  if (holder.pid <= 0 || holder.pid === process.pid) return false;
  const proc = procState(holder.pid);
  if (proc === null) return false;
  if (proc !== undefined) {
    if (proc.state === 'Z' || proc.state === 'X' || proc.state === 'x') return false;
    // Another boot, or the PID given to another process since.
    if (holder.boot !== undefined && holder.boot !== bootId()) return false;
    if (holder.start !== undefined && holder.start !== proc.start) return false;
    return true;
  }
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryCreate(file: string, holder: Holder): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, `${JSON.stringify(holder)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Takes the lock or throws DataDirLocked naming the holder. Writes nothing
 * but the lock file itself, so a refused process leaves the directory as it
 * found it.
 */
export function acquireDataDirLock(dir: string): DataDirLock {
  const file = join(dir, LOCK_FILE);
  const me: Holder = {
    pid: process.pid,
    host: hostname(),
    nonce: randomBytes(8).toString('hex'),
    since: new Date().toISOString(),
  };
  const mine = procState(process.pid);
  const boot = bootId();
  if (mine) me.start = mine.start;
  if (mine && boot) me.boot = boot;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(file, me)) return held(file, me);
    const holder = readHolder(file);
    if (holder === null) continue; // released between our create and our read
    if (holderAlive(holder)) throw new DataDirLocked(dir, holder);
    // Stale. Move it aside atomically rather than unlink: if another starter
    // replaced it meanwhile, we see its lock in our hands and put it back.
    const aside = `${file}.stale-${me.nonce}`;
    try {
      renameSync(file, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    const moved = readHolder(aside);
    if (moved && moved.nonce !== holder.nonce && holderAlive(moved)) {
      try {
        linkSync(aside, file);
      } finally {
        unlinkSync(aside);
      }
      throw new DataDirLocked(dir, moved);
    }
    unlinkSync(aside);
  }
  const holder = readHolder(file);
  throw new DataDirLocked(dir, holder ?? { pid: 0, host: hostname(), nonce: '', since: 'unknown' });
}

function held(file: string, me: Holder): DataDirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    // Only our own lock: never remove one another process took after us.
    if (readHolder(file)?.nonce === me.nonce) {
      try {
        unlinkSync(file);
      } catch {}
    }
  };
  // A process that exits without closing the store still frees the directory.
  process.on('exit', release);
  return { file, release };
}
