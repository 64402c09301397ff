import Type from 'typebox';
import { withDefault } from '../../common.js';

export const PoolQuery = Type.Object({
  days: withDefault(
    Type.Integer({ minimum: 1, maximum: 365, description: 'Window, days back' }),
    30,
  ),
  target: withDefault(
    Type.Number({
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      description: 'Attribution accuracy the recommended pool size aims at',
    }),
    0.99,
  ),
});
