import Type from 'typebox';

export const e164 = Type.String({ 'x-check': 'e164', description: 'E.164 number' });
export const isoDate = Type.String({
  'x-check': 'iso_datetime',
  description: 'ISO 8601 timestamp with a zone',
});

export const OrgIdParams = Type.Object({ org_id: Type.String({ minLength: 1, maxLength: 64 }) });
export const CampaignParams = Type.Object({
  org_id: Type.String({ minLength: 1, maxLength: 64 }),
  code: Type.String({ minLength: 1, maxLength: 3 }),
});
