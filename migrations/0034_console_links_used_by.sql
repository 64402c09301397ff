-- Who used an invitation or reset link: the account that accepted it (signed
-- in as the invited email, or created by the link), shown to the operator
-- next to the link's state.
ALTER TABLE "console_links" ADD COLUMN "used_by" text REFERENCES "console_users"("id");
