-- The one-request allocation function: every open goes through dni_open_sessions (batches),
-- and nothing calls this one any more. One current text of the allocation is left.
DROP FUNCTION IF EXISTS dni_open_session(text, text, text, timestamptz, text, jsonb);
