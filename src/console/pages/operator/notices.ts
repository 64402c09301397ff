export const NOTICES: Record<string, string> = {
  org_created: 'Organization created. Issue it a key and invite its people below.',
  tracking_on: 'Tracking is on: its keys can create sessions.',
  tracking_off: 'Tracking is off: its keys get 403 tracking_disabled.',
  key_revoked: 'Key revoked. It stops working within a second.',
};
