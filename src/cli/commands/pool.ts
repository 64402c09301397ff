import type { Command } from 'commander';
import type { PoolHealthView } from '../../domain/dni/pool-health.js';
import { seg } from '../client.js';
import { type Answer, fields, formatValue, table, type View } from '../output.js';
import type { CliContext } from './shared.js';
import { integer } from './shared.js';

const pct = (x: unknown) => (typeof x === 'number' ? `${(x * 100).toFixed(1)}%` : '-');

/** The busiest hours are what sizing is about: the human view lists those, --json has every hour. */
const BUSIEST_HOURS = 8;

function human(a: Answer): string {
  const p = a as unknown as PoolHealthView;
  const rec = p.recommendation;
  const head = fields({
    campaign: p.campaign_code,
    window: `${p.window.days} days (${p.window.since} to ${p.window.until})`,
    numbers: p.numbers,
    held_now: p.held_now,
    peak_held: p.peak_held,
    sessions: `allocated ${p.sessions.allocated}, sticky ${p.sessions.sticky}, shared ${p.sessions.shared}, overflow ${p.sessions.overflow}`,
    calls: `${p.calls.total}: holder ${p.calls.by_rule.holder}, grace ${p.calls.by_rule.grace}, repeat caller ${p.calls.by_rule.repeat_caller}, campaign only ${p.calls.by_rule.campaign_only}; on a shared number ${p.calls.on_shared_number}`,
    accuracy: `${pct(p.accuracy.estimated)} (${p.accuracy.method})`,
    recommended: `${formatValue(rec.size)} numbers for ${pct(rec.target)} (${rec.basis}${rec.size === null ? '' : `, predicted ${pct(rec.predicted_accuracy)}`})`,
    busy_hour: `${rec.busiest_hour_new_sessions} new sessions, mean hold ${formatValue(rec.mean_hold_seconds)} s, load ${rec.busy_hour_load_erlangs} erlangs`,
    ...(rec.note ? { note: rec.note } : {}),
  });
  const hours = [...p.hourly]
    .filter((h) => h.new_sessions > 0 || h.peak_held > 0)
    .sort((x, y) => y.peak_held - x.peak_held || y.new_sessions - x.new_sessions)
    .slice(0, BUSIEST_HOURS);
  const parts = [head];
  if (hours.length > 0) {
    parts.push(
      table(
        ['BUSIEST HOUR', 'NEW SESSIONS', 'PEAK HELD'],
        hours.map((h) => [h.hour, String(h.new_sessions), String(h.peak_held)]),
      ),
    );
  }
  const rules = p.rules_of_thumb;
  if (rules.length > 0) {
    parts.push(
      table(
        ['RULE OF THUMB', 'SIZE', 'RULE'],
        rules.map((r) => [r.source, String(r.size), r.rule]),
      ),
    );
  }
  return parts.join('\n\n');
}

const poolView: View = { primary: (p) => (p.recommendation as Answer).size, human };

export function poolCommand(campaign: Command, ctx: CliContext): void {
  campaign
    .command('pool')
    .description('pool health: held numbers, outcomes, attribution accuracy, recommended size')
    .argument('<org_id>')
    .argument('<code>')
    .option('--days <days>', 'window, days back (default 30)', integer)
    .option('--target <accuracy>', 'accuracy to size for, e.g. 0.99 (default)', Number)
    .action((orgId: string, code: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'GET',
          path: `/admin/orgs/${seg(orgId)}/campaigns/${seg(code)}/pool`,
          query: { days: o.days, target: o.target },
        },
        poolView,
      ),
    );
}
