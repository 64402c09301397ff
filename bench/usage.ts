import { readFileSync } from 'node:fs';

/** What a child reports about itself: the numbers the parent cannot read from outside. */
export interface Usage {
  /** Peak resident set size of the child's whole life, in kB (see peakRssKb). */
  maxRssKb: number;
  /** User + system CPU time so far, in microseconds. */
  cpuMicros: number;
  /** Per-outcome DNI counts, when the child serves /dni/session. */
  outcomes?: Record<string, number>;
  /** process.memoryUsage() now, in MB: where the resident memory sits. */
  mem?: Record<string, number>;
}

export type Message = { type: string } & Record<string, unknown>;

/**
 * Peak RSS of this process in kB. On Linux, VmHWM of /proc/self/status: the
 * high-water mark of this program's own memory. getrusage's maxRSS
 * (process.resourceUsage) is not used there because Linux carries the forking
 * parent's RSS at fork time into it, so every child would report at least the
 * bench runner's size.
 */
function peakRssKb(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS;
}

export function ownUsage(): Usage {
  const r = process.resourceUsage();
  const mem = Object.fromEntries(
    Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round(v / 2 ** 20)]),
  );
  return { maxRssKb: peakRssKb(), cpuMicros: r.userCPUTime + r.systemCPUTime, mem };
}

let session: import('node:inspector/promises').Session | null = null;

/**
 * CPU profiling of the measured window only (not start-up or warm-up), so a
 * profile's sample time divided by the row's operations is a cost per operation.
 */
export async function profileStart(): Promise<void> {
  const { Session } = await import('node:inspector/promises');
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}

export async function profileStop(file: string): Promise<void> {
  if (!session) return;
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  session = null;
  const { writeFileSync } = await import('node:fs');
  writeFileSync(file, JSON.stringify(profile));
}

/** The messages both children answer the same way; false when `m` is not one of them. */
export function commonMessage(m: Message, send: (reply: Message) => void): boolean {
  if (m.type === 'profile-start') {
    void profileStart().then(() => send({ type: 'profiling' }));
  } else if (m.type === 'profile-stop') {
    void profileStop(m.file as string).then(() => send({ type: 'profiled' }));
  } else {
    return false;
  }
  return true;
}
