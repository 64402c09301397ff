import Type from 'typebox';

export const ExportQuery = Type.Object({
  format: Type.Union([Type.Literal('google-ads'), Type.Literal('meta')]),
  since: Type.String({
    'x-check': 'iso_datetime',
    description: 'Calls that started at or after this time',
  }),
});
