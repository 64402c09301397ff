import Type, { type TProperties } from 'typebox';
import { withDefault } from '../../common.js';

/** Query strings of the admin lists: one paging pair for all; each list adds its filters. */
const isoDate = (description: string) =>
  Type.String({ 'x-check': 'iso_datetime', description: `${description}; ISO 8601 with a zone` });

const paging = {
  limit: withDefault(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'Items per page' }),
    100,
  ),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'next_cursor of the previous page, as given (opaque)',
    }),
  ),
};

export const timeRange = {
  since: Type.Optional(isoDate('At or after this time')),
  until: Type.Optional(isoDate('Before this time')),
};

export const campaign = Type.Optional(
  Type.String({ minLength: 1, maxLength: 3, description: 'Only this campaign (its code)' }),
);

export const listQuery = <F extends TProperties>(filters: F) =>
  Type.Object({ ...paging, ...filters });

export const PageQuery = listQuery({});
