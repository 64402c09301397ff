/**
 * What an error may say in the log. Drivers put the statement's parameters
 * on their errors (postgres.js: .parameters; Drizzle's DrizzleQueryError:
 * .params and a message that lists them; node-postgres and PGlite: .detail
 * "Key (e164)=(+1…) already exists"), and parameters are phone numbers,
 * visitor ids and notes. So an error is rebuilt from an allow-list of fields,
 * whatever driver raised it.
 */

const PHONE = /(?:\+|%2[Bb])?\d{10,15}(?!\d)/g;
// A double-quoted name stays (constraints, columns, types); any other quoted text is a value.
const QUOTED = /"([^"]*)"/g;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_.$]*$/;
const KEY_VALUE = /\(([^()]*)\)=\(([^()]*)\)/g;

/** Removes what may be personal data from free text: phone numbers, quoted values, key=value pairs. */
export function scrubText(text: string): string {
  return text
    .replace(PHONE, '[number]')
    .replace(KEY_VALUE, '($1)=([value])')
    .replace(QUOTED, (whole, inner: string) => (IDENTIFIER.test(inner) ? whole : '"[value]"'));
}

/** "insert calls", "select dni_open_session": the statement's verb and first table or function. */
export function statementName(sql: unknown): string | undefined {
  if (typeof sql !== 'string') return undefined;
  const verb = /^\s*(?:with\b[\s\S]*?\)\s*)?(select|insert|update|delete|call)\b/i.exec(sql)?.[1];
  if (!verb) return undefined;
  const target =
    /\b(?:into|update|from)\s+(?:"?\w+"?\.)?"?(\w+)"?/i.exec(sql)?.[1] ??
    /\bselect\s+(?:\*\s+from\s+)?"?(\w+)"?\s*\(/i.exec(sql)?.[1];
  return target ? `${verb.toLowerCase()} ${target}` : verb.toLowerCase();
}

type Bag = Record<string, unknown>;

const isSqlState = (code: unknown): code is string =>
  typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);

/** The driver's error under Drizzle's wrapper, or the error itself. */
function databaseError(e: Bag): { db: Bag; sql: unknown } | null {
  const cause = e.cause as Bag | undefined;
  if (e.name === 'DrizzleQueryError' || (cause && typeof e.query === 'string' && 'params' in e)) {
    return { db: cause && typeof cause === 'object' ? cause : {}, sql: e.query };
  }
  if (isSqlState(e.code) && ('severity' in e || 'routine' in e || e.name === 'PostgresError')) {
    return { db: e, sql: e.query };
  }
  return null;
}

/** A pino serializer for `err`: type, message, code and stack, with nothing personal in them. */
export function safeError(err: unknown): Bag {
  if (err === null || typeof err !== 'object') return { message: scrubText(String(err)) };
  const e = err as Bag;
  const db = databaseError(e);
  if (db) {
    const out: Bag = {
      type: 'DatabaseError',
      sqlstate: isSqlState(db.db.code) ? db.db.code : undefined,
      statement: statementName(db.sql),
      routine: typeof db.db.routine === 'string' ? db.db.routine : undefined,
      // The server's message names the constraint or type; quoted values are scrubbed.
      message: typeof db.db.message === 'string' ? scrubText(db.db.message) : undefined,
    };
    if (typeof db.db.constraint === 'string') out.constraint = db.db.constraint;
    if (typeof db.db.constraint_name === 'string') out.constraint = db.db.constraint_name;
    return out;
  }
  const out: Bag = {
    type: typeof e.name === 'string' ? e.name : (e.constructor as { name?: string })?.name,
    message: scrubText(typeof e.message === 'string' ? e.message : String(err)),
  };
  if (typeof e.code === 'string') out.code = e.code;
  if (typeof e.stack === 'string') out.stack = scrubText(e.stack);
  if (e.cause !== undefined && e.cause !== err) out.cause = safeError(e.cause);
  return out;
}
