/**
 * Values the admin examples share (each capability's examples.ts): the answers are shaped on
 * what the HTTP suites receive: ids are `<prefix>_` and 32 hex digits (src/domain/ids.ts),
 * times are ISO 8601 in UTC, numbers E.164.
 */
export const ORG_ID = 'org_019caf103180779e8db690243ac46f11';
export const CREATED = '2026-03-02T15:00:00.000Z';
export const UPDATED = '2026-03-02T15:04:05.000Z';
export const KEY_ID = 'key_019caf1031804b363751bc86ca9087e2';
export const CAMPAIGN_ID = 'cmp_019caf103180d1dc8455a3a7ce74f3a0';
export const BUYER_ID = 'buy_019caf103180043307c151ba3488bf73';
export const BUYER_2_ID = 'buy_019caf103180b47c6120c662bca59139';
export const WEBHOOK_ID = 'whk_019caf10318048e30284264a2cefb5bf';
export const DESTINATION_ID = 'cdst_019caf103180e7542767621ff22f33e8';
export const CALL_ID = 'call_019caf13ee8844ea62624c6418c54b2c';
export const SESSION_ID = 'ds_019caf131f80951cebcf80a8faa52edc';
export const TOUCH_ID = 'tch_019caf1031801415e2bc98625b363e94';
export const CONSENT_ID = 'cns_019b8d996900e8e9fc3ae19e90565331';
export const CALLER = '+12125550142';

/** A page of a list answer. */
export const page = (items: unknown[], next_cursor: string | null = null) => ({
  items,
  next_cursor,
});
