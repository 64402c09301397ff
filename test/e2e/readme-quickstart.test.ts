import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Finished, freePort, ROOT, runToEnd } from '../helpers/processes.js';
import {
  durableStoreEnv,
  type ServerProcess,
  startServer,
  useCleanups,
} from '../helpers/server-process.js';

/**
 * The README's Quickstart and "Buyers and routing" blocks, run as a newcomer pastes them: read
 * from README.md at run time (by heading and fence), so that editing the README changes what
 * is tested. Each block runs in bash, in the checkout, against a server on a free port; the
 * only changes are that port for `localhost:3000` and the environment the admin CLI uses to find
 * the server (ADMIN_URL, and DATA_DIR for the admin token the server wrote there, as the
 * Quickstart says). Shell variables carry from block to block as in one terminal; `set -e`
 * stops a block at its first failing command, with that command's error in the failure.
 */

/** The ```sh blocks between `heading` and the next heading of any level (fences skipped). */
function shBlocks(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`README.md has no line "${heading}"`);
  const blocks: string[] = [];
  let block: string[] | null = null;
  let fenced = false;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('```')) {
      if (block) blocks.push(block.join('\n'));
      block = !fenced && line === '```sh' ? [] : null;
      fenced = !fenced;
    } else if (block) block.push(line);
    else if (!fenced && /^#{1,6} /.test(line)) break;
  }
  return blocks;
}

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const quickstart = shBlocks(readme, '## Quickstart');
const routing = shBlocks(readme, '## Buyers and routing');
/** The line that restarts the service for the Twilio webhooks: `NAME=value … npm start`. */
const RESTART = /^((?:[A-Z_]+=\S+ )+)npm start$/;
const restartAt = routing.findIndex((b) => RESTART.test(b.trim()));

describe('the README, pasted', { timeout: 300_000 }, () => {
  const cleanup = useCleanups();
  let port: number;
  let store: Record<string, string>;
  let server: ServerProcess;
  const state = () => join(store.DATA_DIR!, 'readme-shell-state');
  /** Every variable the blocks assign, for the next block's shell. */
  const names = [
    ...new Set(
      [...quickstart, ...routing].flatMap((b) =>
        [...b.matchAll(/^\s*([A-Za-z_][A-Za-z0-9_]*)=/gm)].map((m) => m[1]!),
      ),
    ),
  ];

  /** One pasted block: the variables the earlier blocks left, the block, its variables saved. */
  async function paste(block: string): Promise<Finished> {
    const text = block.replaceAll('localhost:3000', `localhost:${port}`);
    expect(text, 'a port the test does not substitute').not.toMatch(/:300\d\b/);
    const script = [
      'set -e',
      `if [ -f '${state()}' ]; then . '${state()}'; fi`,
      text,
      `declare -p ${names.join(' ')} > '${state()}' 2>/dev/null || true`,
    ].join('\n');
    const run = await runToEnd(
      'bash',
      ['-c', script],
      { DATA_DIR: store.DATA_DIR!, ADMIN_URL: server.adminUrl },
      240_000,
    );
    expect(run.code, `bash exited ${run.code}:\n${run.stdout}\n${run.stderr}`).toBe(0);
    return run;
  }

  /** A variable a block left, e.g. ORG. */
  function variable(name: string): string {
    const m = new RegExp(`^declare -- ${name}="([^"]*)"$`, 'm').exec(readFileSync(state(), 'utf8'));
    if (!m) throw new Error(`no ${name} after the blocks`);
    return m[1]!;
  }

  async function start(env: Record<string, string> = {}): Promise<ServerProcess> {
    const s = await startServer({ ...store, PORT: String(port), ...env });
    cleanup(() => s.kill('SIGKILL'));
    return s;
  }

  beforeAll(async () => {
    // `npm run admin` runs dist/: compiled now, not inside a block's time.
    const built = await runToEnd(process.execPath, ['scripts/ensure-build.mjs'], {}, 300_000);
    expect(built.code, built.stderr).toBe(0);
    port = await freePort();
    store = await durableStoreEnv('readme-quickstart', cleanup);
    // No ADMIN_TOKEN: the server writes DATA_DIR/admin-token, which the CLI reads.
    server = await start();
  }, 360_000);

  it('has the blocks the test reads', () => {
    expect(quickstart).toHaveLength(1);
    expect(restartAt, 'a "NAME=value … npm start" block under "Buyers and routing"').toBe(1);
    expect(routing).toHaveLength(3);
  });

  it('Quickstart: a tracking number, a recorded call, its buyer report, a touch', async () => {
    const out = (await paste(quickstart[0]!)).stdout;
    expect(out).toMatch(
      /^\{"tracking_number":"\+14155550101","dni_session_id":"ds_[0-9a-f]+","expires_at":"[^"]+"\} 201$/m,
    );
    expect(out).toMatch(/^\{"event_id":"evt_[0-9a-f]+","created":true\} 201$/m);
    expect(out).toMatch(/^\{"touch_id":null,"status":"would_(queue|block)",.*\} 200$/m);
    expect(variable('ORG')).toMatch(/^org_[0-9a-f]+$/);
    expect(variable('CALL')).toMatch(/^call_[0-9a-f]+$/);
  });

  it('Buyers and routing: two buyers, the plan, the caps', async () => {
    const out = (await paste(routing[0]!)).stdout;
    const [a, b] = [variable('A'), variable('B')];
    expect(a).toMatch(/^buy_[0-9a-f]+$/);
    expect(out).toContain('campaign spr: ring 15s each, then fallback forward_to');
    expect(out).toMatch(new RegExp(`^  priority 1  weight 1  ${a}$`, 'm'));
    expect(out).toMatch(new RegExp(`^  priority 2  weight 1  ${b}$`, 'm'));
    expect(out).toMatch(new RegExp(`^${a} .*\\+13125550111 .*daily 0/100 .*Acme Insurance$`, 'm'));
    expect(out).toMatch(new RegExp(`^${b} .*\\+13125550122 .*no caps .*Beta Home$`, 'm'));
  });

  it('a signed voice webhook rings the first buyer, a no-answer the next', async () => {
    const env = Object.fromEntries(
      RESTART.exec(routing[restartAt]!.trim())![1]!
        .replaceAll('localhost:3000', `localhost:${port}`)
        .trim()
        .split(/\s+/)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
    expect(Object.keys(env).sort()).toEqual(['PUBLIC_BASE_URL', 'TWILIO_AUTH_TOKEN']);
    await server.kill('SIGTERM');
    server = await start(env);

    const out = (await paste(routing[2]!)).stdout;
    const dial = (number: string) =>
      new RegExp(
        `<Response><Dial action="http://localhost:${port}/carrier/twilio/dial\\?offer=(ofr_[0-9a-f]+)" method="POST" timeout="15" answerOnBridge="true">\\${number}</Dial></Response>$`,
        'm',
      );
    const first = dial('+13125550111').exec(out);
    const next = dial('+13125550122').exec(out);
    expect(first, out).not.toBeNull();
    expect(next, out).not.toBeNull();
    expect(next!.index).toBeGreaterThan(first!.index);
    expect(next![1]).not.toBe(first![1]);
    // `buyer list` between the two: Acme's offer counts at once.
    const listed = out.slice(first!.index, next!.index);
    expect(listed).toMatch(new RegExp(`^${variable('A')} .*daily 1/100 .*Acme Insurance$`, 'm'));

    // The prose after the block: Acme's unanswered offer counts no more; the call is attributed.
    const token = readFileSync(join(store.DATA_DIR!, 'admin-token'), 'utf8').trim();
    const admin = (path: string) =>
      fetch(`${server.adminUrl}/admin/orgs/${variable('ORG')}${path}`, {
        headers: { authorization: `Bearer ${token}` },
      }).then((r) => r.json() as Promise<any>);
    expect((await admin(`/buyers/${variable('A')}`)).usage.daily).toBe(0);
    const calls = (await admin('/calls')).items as any[];
    const routed = calls.find((c) => c.call_id !== variable('CALL'));
    expect(routed, JSON.stringify(calls)).toBeDefined();
    expect(JSON.stringify(routed)).toContain('visitor-42');
  });
});
