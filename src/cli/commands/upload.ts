import { type FileHandle, open } from 'node:fs/promises';
import { type AdminStream, type ApiOutcome, readAnswer } from '../client.js';
import { type Answer, EXIT, report, succeeded, type View } from '../output.js';
import { ProgressBar } from '../progress.js';
import type { CliSession } from './shared.js';

const CHUNK = 64 * 1024;

/** The file as a request body, read as fetch asks for it; `onRead` sees the bytes so far. */
export function fileStream(
  fh: FileHandle,
  onRead: (bytes: number) => void,
  onEnd: () => void = () => {},
): ReadableStream<Uint8Array> {
  let bytes = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const buf = new Uint8Array(CHUNK);
      const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) {
        controller.close();
        onEnd();
        return;
      }
      bytes += bytesRead;
      onRead(bytes);
      controller.enqueue(buf.subarray(0, bytesRead));
    },
  });
}

export const errorCode = (err: unknown) =>
  (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));

/**
 * POSTs FILE as the streamed body of `path` (any size: the admin API's body
 * limit does not apply to imports), with a progress bar on a terminal, and
 * reports the answer with `view`. `outcome` is absent when the file could not
 * be read (the exit code says so).
 */
export async function uploadFile(
  session: CliSession,
  file: string,
  target: { path: string; contentType: string; progressLines?: boolean },
  view: View,
): Promise<{ code: number; outcome?: ApiOutcome }> {
  let fh: FileHandle;
  let size: number;
  try {
    fh = await open(file, 'r');
    size = (await fh.stat()).size;
  } catch (err) {
    session.stderr.write(`error: cannot read ${file} (${errorCode(err)})\n`);
    return { code: EXIT.usage };
  }
  const bar =
    session.mode !== 'quiet' && session.stderr.isTTY === true
      ? new ProgressBar(session.stderr, size)
      : null;
  try {
    bar?.update(0);
    const opened = await session.open({
      method: 'POST',
      path: target.path,
      // Asked for only where a bar shows them; any other client gets the plain answer.
      ...(bar && target.progressLines ? { accept: NDJSON } : {}),
      upload: {
        contentType: target.contentType,
        stream: fileStream(
          fh,
          (bytes) => bar?.update(bytes),
          () => bar?.waiting('the server is importing'),
        ),
      },
    });
    const outcome =
      opened.kind !== 'stream'
        ? opened
        : bar && opened.headers.get('content-type')?.startsWith(NDJSON)
          ? await readProgressLines(opened, bar)
          : await readAnswer(opened);
    // Erased before the summary is printed, whichever stream that goes to.
    bar?.clear();
    return { code: report(session, session.mode, outcome, view), outcome };
  } finally {
    await fh.close();
  }
}

const NDJSON = 'application/x-ndjson';

/**
 * An import's answer as progress lines (POST /admin/orgs/{org}/consents/import with
 * `Accept: application/x-ndjson`): each `progress` line redraws the bar with the rows done, the
 * total and the rate; the last line is the `summary` (the plain answer's body) or, when the
 * import failed after the stream began, `status` and `error` (the plain answer's error).
 */
export async function readProgressLines(
  stream: AdminStream,
  bar: ProgressBar,
): Promise<ApiOutcome> {
  const decoder = new TextDecoder();
  let pending = '';
  let last: ApiOutcome | undefined;
  const take = (text: string) => {
    if (text.trim() === '') return;
    const line = JSON.parse(text) as {
      progress?: { rows: number; total: number };
      summary?: unknown;
      status?: number;
      error?: unknown;
    };
    if (line.progress) bar.rows(line.progress.rows, line.progress.total);
    else if (line.summary !== undefined) {
      last = {
        kind: 'answer',
        status: stream.status,
        text: JSON.stringify(line.summary),
        body: line.summary,
      };
    } else if (line.status !== undefined) {
      last = {
        kind: 'answer',
        status: line.status,
        text: JSON.stringify(line.error),
        body: line.error,
      };
    }
  };
  const broken = await stream.pipe((chunk) => {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const l of lines) take(l);
  });
  if (broken) return broken;
  take(pending + decoder.decode());
  return (
    last ?? {
      kind: 'unreachable',
      url: stream.url,
      code: 'EPROTO',
      message: 'the answer ended before the import summary',
    }
  );
}

/**
 * An import's exit code: the valid rows are in, but a script must not take a partial import
 * for a whole one, so any rejected row makes the run fail with 65 (EX_DATAERR; the rows are
 * listed in the summary). The same for every import command.
 */
export function importExit(result: { code: number; outcome?: ApiOutcome }): number {
  const body =
    result.outcome && succeeded(result.outcome) ? (result.outcome.body as Answer) : undefined;
  const rejected = Number(body?.rejected_count ?? 0);
  return result.code === EXIT.ok && rejected > 0 ? EXIT.data : result.code;
}
