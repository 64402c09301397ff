import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * wrk (Debian's package, C and LuaJIT) as the load generator for the
 * closed-loop HTTP rows: it costs a fraction of autocannon's ~50 µs of CPU per
 * request, which on two cores was taken from the server and PostgreSQL
 * (issue 23). Rows that need what Lua cannot do cheaply (a fixed offered
 * rate, Twilio's HMAC signatures) stay on autocannon.
 */

/** One request shape; `{n}` in the body becomes a counter, `{pick}` the next of `picks`. */
export interface WrkRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  picks?: string[];
}

export interface WrkResult {
  requests: number;
  /** Answers outside 2xx/3xx. */
  non2xx: number;
  /** Connect, read, write errors and timeouts. */
  socketErrors: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time wrk itself used (user + system), µs. */
  cpuMicros: number;
}

let available: boolean | undefined;

/** wrk on PATH (BENCH_LOADGEN=autocannon forces autocannon). */
export function wrkAvailable(): boolean {
  if (process.env.BENCH_LOADGEN === 'autocannon') return false;
  if (available === undefined) {
    try {
      execFileSync('wrk', ['--version'], { stdio: 'ignore' });
      available = true;
    } catch (err) {
      // wrk --version exits 1 after printing its version.
      available = (err as { status?: number }).status === 1;
    }
  }
  return available;
}

const lua = (s: string) => JSON.stringify(s); // a JSON string is a valid Lua string literal here (no \u escapes in our inputs)

function script(req: WrkRequest, prefix: string): string {
  const headers = Object.entries(req.headers ?? {})
    .map(([k, v]) => `[${lua(k)}] = ${lua(v)}`)
    .join(', ');
  const picks = (req.picks ?? ['']).map(lua).join(', ');
  const body = (req.body ?? '').replaceAll('{n}', `${prefix}{n}`);
  return `
local n = 0
local picks = { ${picks} }
local headers = { ${headers} }
local template = ${lua(body)}
request = function()
  n = n + 1
  local body = nil
  if template ~= "" then
    body = template:gsub("{n}", tostring(n)):gsub("{pick}", picks[(n % #picks) + 1])
  end
  return wrk.format(${lua(req.method)}, ${lua(req.path)}, headers, body)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("WRK_RESULT {\\"requests\\":%d,\\"non2xx\\":%d,\\"socket\\":%d,\\"us\\":%d,\\"p50\\":%d,\\"p99\\":%d}\\n",
    summary.requests, e.status, e.connect + e.read + e.write + e.timeout, summary.duration,
    latency:percentile(50), latency:percentile(99)))
end
`;
}

/**
 * Runs wrk with one thread (the generator's share of two cores stays small)
 * for `seconds` against `url`. Its CPU time comes from the shell that waited
 * for it (cutime + cstime in /proc/<shell>/stat), so it is exact.
 */
export async function runWrk(
  url: string,
  req: WrkRequest,
  opts: { seconds: number; connections: number; prefix: string },
): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  const file = join(dir, 'load.lua');
  writeFileSync(file, script(req, opts.prefix));
  const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  const cmd = `wrk -t1 -c${opts.connections} -d${opts.seconds}s --timeout 10s -s "$1" "$2"; echo "WRK_CPU $(cut -d' ' -f16,17 /proc/$$/stat)"`;
  try {
    const out = await new Promise<string>((resolve, reject) => {
      const p = spawn('sh', ['-c', cmd, 'sh', file, url], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
      });
      p.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      p.on('error', reject);
      p.on('close', (code) =>
        code === 0 ? resolve(stdout) : reject(new Error(`wrk exited ${code}: ${stderr}`)),
      );
    });
    const result = /WRK_RESULT (\{.*\})/.exec(out);
    const cpu = /WRK_CPU (\d+) (\d+)/.exec(out);
    if (!result || !cpu) throw new Error(`wrk printed no result:\n${out}`);
    const r = JSON.parse(result[1]!) as Record<string, number>;
    return {
      requests: r.requests!,
      non2xx: r.non2xx!,
      socketErrors: r.socket!,
      seconds: r.us! / 1e6,
      p50Ms: r.p50! / 1000,
      p99Ms: r.p99! / 1000,
      cpuMicros: ((Number(cpu[1]) + Number(cpu[2])) / ticks) * 1e6,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
