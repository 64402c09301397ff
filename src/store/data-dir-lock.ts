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
 * asked of the kernel (signal 0), so a lock left by a SIGKILLed process is
 * recognised at once and never blocks the next start.
 */
export const LOCK_FILE = '.tracking.lock';

interface Holder {
  pid: number;
  host: string;
  nonce: string;
  since: string;
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
    };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    // Half-written or garbage: a process died between create and write.
    return { pid: 0, host: hostname(), nonce: '', since: 'unknown' };
  }
}

/**
 * Dead when the kernel has no such process. Our own PID counts as dead: a
 * container restarted on the same volume runs as PID 1 again. A holder on
 * another host (a shared volume) cannot be checked, so it is taken as alive.
 */
function alive(h: Holder): boolean {
  if (h.host !== hostname()) return true;
  if (h.pid <= 0 || h.pid === process.pid) return false;
  try {
    process.kill(h.pid, 0);
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
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(file, me)) return held(file, me);
    const holder = readHolder(file);
    if (holder === null) continue; // released between our create and our read
    if (alive(holder)) throw new DataDirLocked(dir, holder);
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
    if (moved && moved.nonce !== holder.nonce && alive(moved)) {
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
