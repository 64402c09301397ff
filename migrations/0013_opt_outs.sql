-- Extra revocation phrases per organization (compliance-rules.md Part B §1.4: any words a
-- reasonable person would read as revocation), on top of STOP, QUIT, END and the rest.
ALTER TABLE "orgs" ADD COLUMN "opt_out_phrases" text[] DEFAULT '{}'::text[] NOT NULL;
