import { join } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { type Config, ConfigError, loadConfig, resolveAdminToken } from '../config.js';
import { type AdminTarget, callAdmin, type FetchLike, streamAdmin } from './client.js';
import { commandGroups } from './commands/index.js';
import type { CliContext } from './commands/shared.js';
import { EXIT, type Mode, report, type Writer } from './output.js';

/** Everything the CLI touches outside itself, so tests run it in-process (a writer's isTTY included). */
export interface CliIo {
  stdout: Writer;
  stderr: Writer;
  env: Record<string, string | undefined>;
  fetch?: FetchLike;
  /** Where `--password-stdin` reads from; absent: this process's standard input. */
  stdin?: AsyncIterable<Buffer | string> | Iterable<Buffer | string>;
}

interface GlobalOptions {
  url?: string;
  token?: string;
  json?: boolean;
  quiet?: boolean;
}

const FOOTER = `
Environment:
  ADMIN_URL    admin API base URL (default http://127.0.0.1:3001, from ADMIN_HOST/ADMIN_PORT)
  ADMIN_TOKEN  admin token; when unset, DATA_DIR/admin-token is read as the server does
  DATA_DIR     the server's data directory (default ./data)

Exit codes: 0 done, 1 the API answered with an error, 2 the API could not be
reached (or no token / bad configuration), 64 wrong usage, 74 the output file
could not be written.`;

function httpUrl(value: string): string {
  let protocol: string;
  try {
    protocol = new URL(value).protocol;
  } catch {
    throw new InvalidArgumentError('not a URL');
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new InvalidArgumentError('must start with http:// or https://');
  }
  return value;
}

/** Flags beat the environment; the token file is read, never created, by a client. */
function target(config: Config, g: GlobalOptions): AdminTarget | string {
  const token = g.token || resolveAdminToken(config, false);
  if (!token) {
    return (
      'error: no admin token: set ADMIN_TOKEN or pass --token; otherwise the CLI reads ' +
      `${join(config.dataDir, 'admin-token')}, which the server writes on its first start ` +
      '(set DATA_DIR to the directory the server uses)\n'
    );
  }
  return { url: g.url ?? config.adminUrl, token };
}

function program(io: CliIo, ctx: CliContext): Command {
  const root = new Command('tracking-admin')
    .description('Provider-support client of the call-tracking admin API.')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(add --help for usage)')
    .option('--url <url>', 'admin API base URL (overrides ADMIN_URL)', httpUrl)
    .option('--token <token>', 'admin token (overrides ADMIN_TOKEN and DATA_DIR/admin-token)')
    .addOption(new Option('--json', "print the API's JSON answer as it is").conflicts('quiet'))
    .option('-q, --quiet', 'print only the primary value (an id, the api_key, a code)')
    .addHelpText('after', FOOTER);
  for (const group of commandGroups) group(root, ctx);
  return root;
}

/** Runs one command line; resolves to the process exit code instead of exiting. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  let config: Config;
  try {
    config = loadConfig(io.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.stderr.write(`configuration error: ${err.message}\n`);
    return EXIT.unreachable;
  }
  let exitCode: number = EXIT.ok;
  const connect = (cmd: Command): { target: AdminTarget; mode: Mode } | undefined => {
    const g = cmd.optsWithGlobals<GlobalOptions>();
    const t = target(config, g);
    if (typeof t === 'string') {
      io.stderr.write(t);
      exitCode = EXIT.unreachable;
      return undefined;
    }
    return { target: t, mode: g.json ? 'json' : g.quiet ? 'quiet' : 'human' };
  };
  const ctx: CliContext = {
    stdin: () => io.stdin ?? process.stdin,
    async send(cmd, req, view) {
      const c = connect(cmd);
      if (c) exitCode = report(io, c.mode, await callAdmin(c.target, req, io.fetch), view);
    },
    async stream(cmd, handle) {
      const c = connect(cmd);
      if (!c) return;
      exitCode = await handle({
        mode: c.mode,
        stdout: io.stdout,
        stderr: io.stderr,
        open: (req) => streamAdmin(c.target, req, io.fetch),
      });
    },
  };
  try {
    await program(io, ctx).parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    throw err;
  }
  return exitCode;
}
