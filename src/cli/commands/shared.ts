import { readFileSync } from 'node:fs';
import { type Command, InvalidArgumentError } from 'commander';
import type { ApiRequest, StreamOutcome } from '../client.js';
import { EXIT, type Mode, type View, type Writer } from '../output.js';

/** A connection to the admin API for a command that prints the answer itself. */
export interface CliSession {
  mode: Mode;
  stdout: Writer;
  stderr: Writer;
  /** Sends the request and stops at the headers. */
  open(req: ApiRequest): Promise<StreamOutcome>;
}

/** What a command group gets from the runner. */
export interface CliContext {
  /** Standard input (tests give their own). */
  stdin(): AsyncIterable<Buffer | string> | Iterable<Buffer | string>;
  /** Sends a request and prints its JSON answer through `view`. */
  send(cmd: Command, req: ApiRequest, view: View): Promise<void>;
  /** For answers that are not JSON to print (files): `handle` reads them and gives the exit code. */
  stream(cmd: Command, handle: (session: CliSession) => Promise<number>): Promise<void>;
}

/** A command group adds its subcommands to the program; groups know nothing of each other. */
export type CommandGroup = (program: Command, ctx: CliContext) => void;

/** Range checks stay with the API, so the CLI and the API cannot disagree on them. */
export function integer(value: string): number {
  if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError('must be an integer');
  return Number(value);
}

/** `a,b, c` → ['a','b','c']: numbers and scopes are given as one comma-separated argument. */
export function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A JSON value inline, or `@path` to read it from a file. */
export function jsonValue(value: string): unknown {
  let text = value;
  if (value.startsWith('@')) {
    try {
      text = readFileSync(value.slice(1), 'utf8');
    } catch (err) {
      throw new InvalidArgumentError(`cannot read ${value.slice(1)}: ${(err as Error).message}`);
    }
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InvalidArgumentError(`not JSON: ${(err as Error).message}`);
  }
}

/** An update with no field would only write an audit row; that is a mistake on the command line. */
export function requireChange(cmd: Command, body: Record<string, unknown>): void {
  if (Object.values(body).every((v) => v === undefined)) {
    cmd.error('error: nothing to change: give at least one option (see --help)', {
      exitCode: EXIT.usage,
      code: 'tracking-admin.nothing_to_change',
    });
  }
}

/** `--no-x` gives false, which the API spells null ("clear it"). */
export const orNull = <T>(value: T | false | undefined): T | null | undefined =>
  value === false ? null : value;
