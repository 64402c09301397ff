import { Option } from 'commander';
import { EXPORT_HEADERS } from '../../routes/admin/exports/headers.js';
import { seg } from '../client.js';
import { download } from '../download.js';
import { EXIT, formatValue } from '../output.js';
import type { CliSession, CommandGroup } from './shared.js';

interface ExportOptions {
  org: string;
  campaign: string;
  since: string;
  format: 'google-ads' | 'meta';
  out?: string;
}

/** The counts under the names --json prints them with; the values come from the answer's headers. */
const COUNT_HEADERS = {
  candidates: EXPORT_HEADERS.candidates,
  rows: EXPORT_HEADERS.exported,
  skipped_no_click_id: EXPORT_HEADERS.skippedNoClickId,
  skipped_too_old: EXPORT_HEADERS.skippedTooOld,
} as const;

type Counts = Record<keyof typeof COUNT_HEADERS, number | null>;

function countsOf(headers: Headers): Counts {
  const entries = Object.entries(COUNT_HEADERS).map(([name, header]) => {
    const v = headers.get(header);
    return [name, v !== null && /^\d+$/.test(v) ? Number(v) : null];
  });
  return Object.fromEntries(entries) as Counts;
}

function summary(c: Counts, where: string): string {
  const n = formatValue;
  return (
    `exported ${n(c.rows)} of ${n(c.candidates)} conversions to ${where}; ` +
    `skipped: ${n(c.skipped_no_click_id)} without a click id, ` +
    `${n(c.skipped_too_old)} older than 7 days`
  );
}

async function exportConversions(s: CliSession, o: ExportOptions): Promise<number> {
  // Not on stderr when stdout is the same terminal: the bar would tear the file's lines.
  const progress =
    s.mode !== 'quiet' && s.stderr.isTTY === true && (o.out !== undefined || !s.stdout.isTTY);
  const done = await download(
    s,
    () =>
      s.open({
        method: 'GET',
        path: `/admin/orgs/${seg(o.org)}/campaigns/${seg(o.campaign)}/exports/conversions`,
        query: { format: o.format, since: o.since },
      }),
    { mode: s.mode, out: o.out, progress },
  );
  if (done.kind === 'failed') return done.exitCode;
  const counts = countsOf(done.stream.headers);
  if (s.mode === 'json') s.stderr.write(`${JSON.stringify(counts)}\n`);
  else if (s.mode === 'human') s.stderr.write(`${summary(counts, o.out ?? 'stdout')}\n`);
  return EXIT.ok;
}

const AFTER = `
The file goes to stdout unless --out is given, so \`> file.csv\` works; the
summary goes to stderr (--json: the counts as JSON, -q: nothing). With --out
the file is written to a temporary file beside FILE, renamed over it once
complete. On a terminal a progress bar is drawn on stderr while the file
downloads.`;

export const exportCommands: CommandGroup = (program, ctx) => {
  const exp = program.command('export').description('upload files built from stored data');

  exp
    .command('conversions')
    .description(
      'offline conversions (calls whose current disposition is success) for Google Ads or Meta',
    )
    .requiredOption('--org <org_id>', 'the organization')
    .requiredOption('--campaign <code>', 'the campaign code')
    .requiredOption('--since <iso>', 'calls that started at or after this time, ISO 8601')
    .addOption(
      new Option('--format <format>', 'google-ads: offline click-conversion CSV; meta: CAPI JSON')
        .choices(['google-ads', 'meta'])
        .makeOptionMandatory(),
    )
    .option('--out <file>', 'write the file here instead of stdout')
    .addHelpText('after', AFTER)
    .action((o: ExportOptions, cmd) => ctx.stream(cmd, (session) => exportConversions(session, o)));
};
