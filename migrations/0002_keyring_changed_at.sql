DROP INDEX "api_keys_updated_idx";--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "orgs" ADD COLUMN "changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "api_keys_changed_idx" ON "api_keys" USING btree ("changed_at");--> statement-breakpoint
-- Other processes poll these rows by changed_at against the database clock,
-- so the stamp must come from that clock too, whatever the writer's clock says.
CREATE FUNCTION stamp_changed_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_at := clock_timestamp();
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER orgs_stamp_changed_at BEFORE INSERT OR UPDATE ON "orgs"
  FOR EACH ROW EXECUTE FUNCTION stamp_changed_at();--> statement-breakpoint
CREATE TRIGGER api_keys_stamp_changed_at BEFORE INSERT OR UPDATE ON "api_keys"
  FOR EACH ROW EXECUTE FUNCTION stamp_changed_at();
