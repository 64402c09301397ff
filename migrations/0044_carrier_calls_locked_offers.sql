-- carrier_calls_locked returns, with each call, its offers and what its organization's
-- endpoints and destinations take (src/store/sql/carrier_calls_locked.sql): a function's
-- result columns cannot be changed in place, so the old one goes and the file makes the new.
DROP FUNCTION IF EXISTS carrier_calls_locked(text, text[]);
