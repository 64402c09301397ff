import { errors } from '../../errors.js';
import type { SuppressionList } from '../compliance/index.js';
import type { SuppressionEntry, SuppressionRepos } from './ports.js';

/** Who changes an entry, and when: every change writes its audit line in the same transaction. */
export interface EntryChange {
  orgId: string;
  actor: string;
  requestId: string | null;
  at: Date;
}

export async function setLitigatorBlocks(
  repos: SuppressionRepos,
  by: EntryChange,
  blocks: boolean,
): Promise<void> {
  await repos.transaction(async (tx) => {
    await repos.suppression.setLitigatorBlocks(tx, by.orgId, blocks, by.at);
    await repos.audit.writeAudit(tx, {
      orgId: by.orgId,
      actor: by.actor,
      action: 'suppression.settings_changed',
      subjectType: 'org',
      subjectId: by.orgId,
      detail: { litigator_blocks: blocks },
      requestId: by.requestId,
      at: by.at,
    });
  });
}

/** Adds a number to a list, or replaces its entry there; returns the entry as stored. */
export function putSuppressionEntry(
  repos: SuppressionRepos,
  by: EntryChange,
  e: {
    list: SuppressionList;
    number: string;
    state: string | null;
    source: string;
    listedOn: string;
  },
): Promise<SuppressionEntry> {
  return repos.transaction(async (tx) => {
    await repos.suppression.putEntry(tx, by.orgId, { ...e, at: by.at });
    await repos.audit.writeAudit(tx, {
      orgId: by.orgId,
      actor: by.actor,
      action: 'suppression.added',
      subjectType: 'suppression_entry',
      subjectId: `+${e.number}`,
      detail: { list: e.list, source: e.source, list_date: e.listedOn, state: e.state },
      requestId: by.requestId,
      at: by.at,
    });
    return (await repos.suppression.getEntry(tx, by.orgId, e.list, e.number)) as SuppressionEntry;
  });
}

/** Removes a number from a list, with the reason in the audit log; 404 when it is not there. */
export async function removeSuppressionEntry(
  repos: SuppressionRepos,
  by: EntryChange,
  list: SuppressionList,
  number: string,
  reason: string,
): Promise<void> {
  await repos.transaction(async (tx) => {
    if (!(await repos.suppression.deleteEntry(tx, by.orgId, list, number))) {
      throw errors.suppressionEntryNotFound();
    }
    await repos.audit.writeAudit(tx, {
      orgId: by.orgId,
      actor: by.actor,
      action: 'suppression.removed',
      subjectType: 'suppression_entry',
      subjectId: `+${number}`,
      detail: { list, reason },
      requestId: by.requestId,
      at: by.at,
    });
  });
}
