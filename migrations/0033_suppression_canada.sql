-- Canada's National Do Not Call List is a list of its own, so its freshness is judged apart from
-- the US registry (compliance-rules.md Part B §2.4; CRTC Unsolicited Telecommunications Rules,
-- Part II: a copy no older than 31 days).
ALTER TABLE "suppression_entries" DROP CONSTRAINT IF EXISTS "suppression_entries_list_check";
--> statement-breakpoint
ALTER TABLE "suppression_entries" ADD CONSTRAINT "suppression_entries_list_check"
  CHECK ("list" IN ('internal', 'national', 'national_ca', 'state', 'litigator'));
