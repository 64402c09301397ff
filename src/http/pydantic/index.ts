export { type DecodedBody, decodeBody, decodeJsonBytes, isJsonContentType } from './body.js';
export type { Loc, PydanticError } from './errors.js';
export {
  codePointIndex,
  dumpsPy,
  fromPlain,
  isPyObject,
  MAX_JSON_DEPTH,
  PyFloat,
  PyInt,
  PyJsonEncodeError,
  PyObject,
  type PyParseResult,
  type PyValue,
  parsePyJson,
  pyFloatRepr,
  pyRepr,
  rustDisplayF64,
  toPlain,
} from './pyjson.js';
export { jsonInvalidError, missingError, render422, render422Safe } from './render.js';
export { dumpsSafe, renderable } from './safe-json.js';
export {
  type Check,
  compileValidator,
  UnsupportedSchema,
  type ValidateOptions,
  type ValidationResult,
  type Validator,
  validate,
} from './validate.js';
