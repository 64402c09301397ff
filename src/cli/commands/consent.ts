import { type Command, Option } from 'commander';
import { CONSENT_BASES, EBR_BASES, REVOCATION_KINDS } from '../../domain/vocabulary.js';
import { type Answer, fields, formatValue, table, type View } from '../output.js';
import { orgCollection } from './collection.js';
import { col, filter, listView } from './listing.js';
import { type CliContext, type CliSession, type CommandGroup, jsonValue } from './shared.js';
import { importExit, uploadFile } from './upload.js';

const consents = orgCollection('consents', 'e164');

/** Standing first, then the history (newest first) as a table. */
const consentView: View = {
  primary: (c) => c.status,
  human: (c) => {
    const history = Array.isArray(c.history) ? (c.history as Answer[]) : [];
    const rows = history.map((e) =>
      ['captured_at', 'kind', 'tier', 'basis', 'source', 'expires_at', 'reason', 'actor'].map((k) =>
        formatValue(e[k]),
      ),
    );
    const head = fields(c, ['history']);
    if (rows.length === 0) return `${head}\nhistory: -`;
    const headers = ['CAPTURED_AT', 'KIND', 'TIER', 'BASIS', 'SOURCE', 'EXPIRES_AT', 'REASON'];
    return `${head}\nhistory:\n${table([...headers, 'ACTOR'], rows)}`;
  },
};

interface Rejected {
  line: number;
  errors: string[];
}

/** One line of counts, then one line per rejected row the API listed. */
export function importSummary(summary: Answer): string {
  const rejected = Array.isArray(summary.rejected) ? (summary.rejected as Rejected[]) : [];
  const count = Number(summary.rejected_count ?? rejected.length);
  const lines = [
    `imported ${formatValue(summary.imported)} of ${formatValue(summary.rows)} rows; ` +
      `${formatValue(summary.duplicates)} already on file, ${count} rejected`,
    ...rejected.map((r) => `  line ${r.line}: ${r.errors.join('; ')}`),
  ];
  if (count > rejected.length) lines.push(`  … ${count - rejected.length} more not listed`);
  return lines.join('\n');
}

const importView: View = { primary: (s) => s.imported, human: importSummary };

async function importFile(s: CliSession, orgId: string, file: string): Promise<number> {
  return importExit(
    await uploadFile(
      s,
      file,
      {
        path: `${consents.base(orgId)}/import`,
        contentType: 'text/csv',
        progressLines: true,
      },
      importView,
    ),
  );
}

const IMPORT_AFTER = `
FILE is uploaded as text/csv: a header row naming any of e164 (required),
kind, tier, basis, source, captured_at, expires_at, evidence, reason (format in
docs/outbound.md). Valid rows are imported, invalid ones are listed by line.
On a terminal a progress bar is drawn on stderr while the file uploads, then
the server's progress through the rows (rows done of the total, rows a second).
-q prints the number of rows imported.
Exit 65 when any row was rejected (the valid rows are still imported).`;

/** `consent set`: one grant, with the fields the API takes. */
function setCommand(consent: Command, ctx: CliContext): void {
  consents
    .member(consent, 'set', 'record a consent grant (a new event; history is kept)')
    .addOption(
      new Option('--tier <tier>', 'consent tier').choices(CONSENT_BASES).makeOptionMandatory(),
    )
    .addOption(
      new Option(
        '--basis <basis>',
        'ebr only: transaction (18 months) or inquiry (3 months)',
      ).choices(EBR_BASES),
    )
    .option('--source <source>', 'where the consent was captured (a form, a call…)')
    .option('--captured-at <iso>', 'when it was captured (default: now)')
    .option('--expires-at <iso>', 'when it lapses')
    .option('--evidence <json|@file>', 'evidence object, inline JSON or @file.json', jsonValue)
    .action(
      consents.send(ctx, consentView, (at, o) => ({
        method: 'PUT',
        path: at(),
        body: {
          tier: o.tier,
          basis: o.basis,
          source: o.source,
          captured_at: o.capturedAt,
          expires_at: o.expiresAt,
          evidence: o.evidence,
        },
      })),
    );
}

export const consentCommands: CommandGroup = (program, ctx) => {
  const consent = program
    .command('consent')
    .description('consent records for outbound touches (grants, revocations, CSV import)');

  setCommand(consent, ctx);

  consents.list(consent, ctx, {
    description: 'list consent events as recorded, newest first',
    range: 'events recorded',
    filters: [
      filter('--e164 <e164>', 'only this contact'),
      filter('--kind <kind>', 'only grant, revoked, opt_out or internal_dnc events'),
    ],
    view: listView('id', [
      col('RECORDED_AT', 'recorded_at'),
      col('NUMBER', 'e164'),
      col('KIND', 'kind'),
      col('TIER', 'tier'),
      col('SOURCE', 'source'),
      col('CAPTURED_AT', 'captured_at'),
      col('EXPIRES_AT', 'expires_at'),
      col('ACTOR', 'actor'),
    ]),
  });

  consents.show(consent, ctx, "show a number's consent standing and history", consentView);

  consents
    .post(
      consent,
      ctx,
      'revoke',
      'record a revocation, opt-out or internal do-not-call entry',
      consentView,
      (o) => ({ kind: o.kind, reason: o.reason, at: o.at }),
    )
    .addOption(
      new Option('--kind <kind>', 'what happened (default revoked)').choices(REVOCATION_KINDS),
    )
    .option('--reason <reason>', 'free text kept with the event')
    .option('--at <iso>', 'when it happened (default: now)');

  consent
    .command('import')
    .description('import consent events from a CSV file')
    .argument('<org_id>')
    .argument('<file>', 'the CSV file')
    .addHelpText('after', IMPORT_AFTER)
    .action((orgId: string, file: string, _o, cmd) =>
      ctx.stream(cmd, (session) => importFile(session, orgId, file)),
    );
};
