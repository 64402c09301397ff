-- carrier_call_locked(carrier, call sid) became carrier_calls_locked(carrier, call sids[]):
-- the voice webhook locks and reads a batch of calls at once, and a webhook about one call
-- passes a batch of one (src/store/sql/carrier_calls_locked.sql). The old function's file is
-- gone, so nothing would ever replace or remove it.
DROP FUNCTION IF EXISTS carrier_call_locked(text, text);
