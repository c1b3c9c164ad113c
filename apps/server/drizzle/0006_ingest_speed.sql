DROP INDEX "devices_refreshed";--> statement-breakpoint
ALTER TABLE "ingested_readings" DROP COLUMN "device_id";