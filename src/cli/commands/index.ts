import { auditCommands } from './audit.js';
import { buyerCommands } from './buyer.js';
import { callCommands } from './call.js';
import { campaignCommands } from './campaign.js';
import { consentCommands } from './consent.js';
import { conversionCommands } from './conversion.js';
import { exportCommands } from './export.js';
import { keyCommands } from './key.js';
import { numberCommands } from './number.js';
import { orgCommands } from './org.js';
import { reportCommands } from './report.js';
import type { CommandGroup } from './shared.js';
import { suppressionCommands } from './suppression.js';
import { touchCommands } from './touch.js';
import { userCommands } from './user.js';
import { webhookCommands } from './webhook.js';

/** Help lists groups in this order; a new group is a new file and one line here. */
export const commandGroups: CommandGroup[] = [
  orgCommands,
  keyCommands,
  campaignCommands,
  numberCommands,
  callCommands,
  touchCommands,
  reportCommands,
  auditCommands,
  exportCommands,
  consentCommands,
  suppressionCommands,
  webhookCommands,
  conversionCommands,
  buyerCommands,
  userCommands,
];
