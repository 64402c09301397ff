import * as audit from './audit/examples.js';
import * as buyers from './buyers/examples.js';
import * as calls from './calls/examples.js';
import * as campaigns from './campaigns/examples.js';
import * as consents from './consents/examples.js';
import * as consoleUsers from './console-users/examples.js';
import * as conversions from './conversions/examples.js';
import * as exports from './exports/examples.js';
import * as keys from './keys/examples.js';
import * as orgs from './orgs/examples.js';
import * as pools from './pools/examples.js';
import * as reports from './reports/examples.js';
import {
  BUYER_ID,
  CALL_ID,
  CALLER,
  DESTINATION_ID,
  KEY_ID,
  ORG_ID,
  TOUCH_ID,
  WEBHOOK_ID,
} from './shared/example-values.js';
import * as suppression from './suppression/examples.js';
import * as system from './system/examples.js';
import * as touches from './touches/examples.js';
import * as webhooks from './webhooks/examples.js';

// Each capability keeps the examples of its operations beside its route (<capability>/examples.ts);
// the maps below merge them for openapi.ts and test/unit/admin-openapi-examples.test.ts.

/**
 * An example request body for each admin operation whose body schema carries none, by
 * `METHOD /url` as the route is registered. `requireDocumented` (openapi.ts) puts it on the
 * body schema, so the document shows it; redocly's recommended rules
 * (no-invalid-media-type-examples) check it against the schema, and
 * test/unit/admin-openapi-examples.test.ts fails on an operation with a body and no example.
 */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  ...orgs.requestExamples,
  ...keys.requestExamples,
  ...consoleUsers.requestExamples,
  ...campaigns.requestExamples,
  ...calls.requestExamples,
  ...consents.requestExamples,
  ...suppression.requestExamples,
  ...webhooks.requestExamples,
  ...conversions.requestExamples,
  ...buyers.requestExamples,
};

/**
 * An example answer for each admin operation, by `METHOD /url` as the route is registered:
 * `requireDocumented` (openapi.ts) puts it on the JSON content of the success answer, and
 * test/unit/admin-openapi-examples.test.ts checks it against that answer's schema. Operations
 * whose answer schema carries its own example (the report tables) are not here.
 */
export const RESPONSE_EXAMPLES: Record<string, unknown> = {
  ...system.responseExamples,
  ...orgs.responseExamples,
  ...keys.responseExamples,
  ...consoleUsers.responseExamples,
  ...campaigns.responseExamples,
  ...calls.responseExamples,
  ...pools.responseExamples,
  ...touches.responseExamples,
  ...consents.responseExamples,
  ...suppression.responseExamples,
  ...reports.responseExamples,
  ...webhooks.responseExamples,
  ...conversions.responseExamples,
  ...buyers.responseExamples,
  ...audit.responseExamples,
  ...exports.responseExamples,
};

/** Examples of answers that are not JSON, by operation and media type. */
export const TEXT_RESPONSE_EXAMPLES: Record<string, Record<string, string>> = {
  ...system.textResponseExamples,
  ...consents.textResponseExamples,
  ...exports.textResponseExamples,
};

/** An example for each path parameter, by name: the ids the answers above use. */
export const PARAMETER_EXAMPLES: Record<string, string> = {
  org_id: ORG_ID,
  key_id: KEY_ID,
  code: 'spr',
  e164: CALLER,
  list: 'internal',
  call_id: CALL_ID,
  touch_id: TOUCH_ID,
  webhook_id: WEBHOOK_ID,
  destination_id: DESTINATION_ID,
  buyer_id: BUYER_ID,
};
