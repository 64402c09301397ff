import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { field } from './helpers.js';

/**
 * Doc §11: what lax pydantic (Python input) does with each JSON input per target type.
 * A cell is an error type, `=json` for an accepted value (the coerced plain JS value), or `mat`
 * for model_attributes_type.
 */
const columns = {
  str: Type.String(),
  int: Type.Integer(),
  float: Type.Number(),
  bool: Type.Boolean(),
  dict: Type.Record(Type.String(), Type.Unknown()),
  list: Type.Array(Type.Unknown()),
  model: Type.Object({}, { additionalProperties: false }),
};

const TABLE = `
input     | str          | int            | float          | bool          | dict      | list      | model
"abc"     | ="abc"       | int_parsing    | float_parsing  | bool_parsing  | dict_type | list_type | mat
"12"      | ="12"        | =12            | =12            | bool_parsing  | dict_type | list_type | mat
"12.0"    | ="12.0"      | =12            | =12            | bool_parsing  | dict_type | list_type | mat
"1"       | ="1"         | =1             | =1             | =true         | dict_type | list_type | mat
"0"       | ="0"         | =0             | =0             | =false        | dict_type | list_type | mat
"true"    | ="true"      | int_parsing    | float_parsing  | =true         | dict_type | list_type | mat
"YES"     | ="YES"       | int_parsing    | float_parsing  | =true         | dict_type | list_type | mat
"On"      | ="On"        | int_parsing    | float_parsing  | =true         | dict_type | list_type | mat
"t"       | ="t"         | int_parsing    | float_parsing  | =true         | dict_type | list_type | mat
"y"       | ="y"         | int_parsing    | float_parsing  | =true         | dict_type | list_type | mat
12        | string_type  | =12            | =12            | bool_parsing  | dict_type | list_type | mat
1         | string_type  | =1             | =1             | =true         | dict_type | list_type | mat
0         | string_type  | =0             | =0             | =false        | dict_type | list_type | mat
1.5       | string_type  | int_from_float | =1.5           | bool_type     | dict_type | list_type | mat
2.0       | string_type  | =2             | =2             | bool_parsing  | dict_type | list_type | mat
true      | string_type  | =1             | =1             | =true         | dict_type | list_type | mat
false     | string_type  | =0             | =0             | =false        | dict_type | list_type | mat
null      | string_type  | int_type       | float_type     | bool_type     | dict_type | list_type | mat
[]        | string_type  | int_type       | float_type     | bool_type     | dict_type | =[]       | mat
{}        | string_type  | int_type       | float_type     | bool_type     | ={}       | list_type | ={}
`;

const [header, ...rows] = TABLE.trim()
  .split('\n')
  .map((line) => line.split('|').map((cell) => cell.trim()));
const cols = (header as string[]).slice(1) as (keyof typeof columns)[];

describe('lax conversion table (doc §11)', () => {
  it('covers every column', () => {
    expect(cols).toEqual(Object.keys(columns));
    expect(rows).toHaveLength(20);
  });

  for (const [input, ...cells] of rows as string[][]) {
    cols.forEach((col, i) => {
      const cell = cells[i] as string;
      it(`${input} as ${col} -> ${cell}`, () => {
        const got = field(columns[col], input as string);
        if (cell.startsWith('=')) expect(got).toEqual({ ok: JSON.parse(cell.slice(1)) });
        else
          expect(Array.isArray(got) && got[0]).toBe(
            cell === 'mat' ? 'model_attributes_type' : cell,
          );
      });
    });
  }
});
