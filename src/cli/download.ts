import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type AdminStream, readAnswer, type StreamOutcome } from './client.js';
import { EXIT, type Mode, reportFailure, type Writer } from './output.js';
import { formatBytes, ProgressBar } from './progress.js';

/** Where the body goes; nothing reaches `path` until `commit`. */
interface Sink {
  write(chunk: Uint8Array): Promise<void>;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/** A hidden file beside `path`, renamed over it once complete: a reader never sees half a file. */
async function fileSink(path: string): Promise<Sink> {
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(tmp, 'wx');
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await fh.close();
  };
  return {
    async write(chunk) {
      for (let at = 0; at < chunk.length; ) at += (await fh.write(chunk, at)).bytesWritten;
    },
    async commit() {
      // Synced first, so a crash after the rename cannot leave an empty file under the name.
      await fh.sync();
      await close();
      await rename(tmp, path);
    },
    async discard() {
      await close().catch(() => undefined);
      await rm(tmp, { force: true });
    },
  };
}

/**
 * Written as it arrives; waiting for 'drain' keeps a large export out of memory. A body that
 * does not end with a line break gets one, so the shell's prompt starts on a line of its own.
 */
function writerSink(w: Writer): Sink {
  let last = -1;
  return {
    async write(chunk) {
      if (chunk.length > 0) last = chunk[chunk.length - 1]!;
      if (w.write(chunk) === false && w.once) {
        await new Promise<void>((resolve) => w.once?.('drain', resolve));
      }
    },
    commit: async () => {
      if (last !== -1 && last !== 0x0a) w.write(new Uint8Array([0x0a]));
    },
    discard: async () => undefined,
  };
}

/** Content-Length counts the bytes on the wire, which are not the ones read when compressed. */
function bodyLength(headers: Headers): number | null {
  const length = headers.get('content-length');
  if (length === null || headers.get('content-encoding') || !/^\d+$/.test(length)) return null;
  return Number(length);
}

const errorCode = (err: unknown) =>
  (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));

export interface DownloadOptions {
  mode: Mode;
  /** A file to write; stdout when undefined. */
  out?: string | undefined;
  /** Draw a progress bar on stderr (a terminal). */
  progress: boolean;
}

export type Downloaded =
  | { kind: 'saved'; stream: AdminStream; bytes: number }
  | { kind: 'failed'; exitCode: number };

/**
 * Sends the request `open` makes and saves a 2xx body to the file or stdout.
 * Failures are printed here; an error answer or a broken transfer leaves an
 * existing --out file as it was.
 */
export async function download(
  io: { stdout: Writer; stderr: Writer },
  openRequest: () => Promise<StreamOutcome>,
  o: DownloadOptions,
): Promise<Downloaded> {
  const failed = (exitCode: number): Downloaded => ({ kind: 'failed', exitCode });
  const cannotWrite = (err: unknown) => {
    io.stderr.write(`error: cannot write ${o.out ?? 'stdout'} (${errorCode(err)})\n`);
    return failed(EXIT.io);
  };
  let sink: Sink;
  try {
    // Before the request, so a bad path costs the server nothing.
    sink = o.out === undefined ? writerSink(io.stdout) : await fileSink(o.out);
  } catch (err) {
    return cannotWrite(err);
  }

  const opened = await openRequest();
  if (opened.kind !== 'stream' || opened.status < 200 || opened.status >= 300) {
    const outcome = opened.kind === 'stream' ? await readAnswer(opened) : opened;
    await sink.discard();
    return failed(reportFailure(io, o.mode, outcome));
  }

  const bar = o.progress ? new ProgressBar(io.stderr, bodyLength(opened.headers)) : null;
  bar?.update(0);
  let bytes = 0;
  let broken: Awaited<ReturnType<AdminStream['pipe']>>;
  try {
    broken = await opened.pipe(async (chunk) => {
      await sink.write(chunk);
      bytes += chunk.length;
      bar?.update(bytes);
    });
  } catch (err) {
    bar?.clear();
    await sink.discard();
    return cannotWrite(err);
  }
  bar?.clear();
  if (broken) {
    await sink.discard();
    const left = o.out === undefined ? 'the output is incomplete' : `${o.out} was not written`;
    io.stderr.write(
      `error: the answer from ${broken.url} broke off after ${formatBytes(bytes)} ` +
        `(${broken.code ?? broken.message}); ${left}\n`,
    );
    return failed(EXIT.unreachable);
  }
  try {
    await sink.commit();
  } catch (err) {
    await sink.discard();
    return cannotWrite(err);
  }
  return { kind: 'saved', stream: opened, bytes };
}
