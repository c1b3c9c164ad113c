-- Meter reads a dealer can bill on (issue 41): how each counter was read (the OID and the profile's
-- rule, or how it was derived), the two totals a device may give (the Printer-MIB's marker count
-- and the vendor's own, which is billed), and black-and-white plus colour that do not add up to it.
ALTER TABLE "devices" ADD COLUMN "counter_sources" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "marker_total_count" bigint;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "vendor_total_count" bigint;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "split_mismatch" jsonb;
