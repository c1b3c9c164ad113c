-- A contract's included pages are each device's (PER_DEVICE, as before) or the contract's for all
-- its devices together (POOLED) (issue 54): the runs' amounts follow the contract's setting.
ALTER TABLE "contracts" ADD COLUMN "included_pages" varchar(10) DEFAULT 'PER_DEVICE' NOT NULL;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_included_pages" CHECK ("included_pages" IN ('PER_DEVICE', 'POOLED'));
