-- One name per thing (issue 40): a supply's percentage is its `level` from the database to the
-- screen, as the API and the console already call it; the raw value the printer reports
-- (prtMarkerSuppliesLevel, with its max capacity) becomes `raw_level`. The raw column is
-- renamed first, so that `level` is free for the percentage. Renames keep every row, index and
-- partition (dm_device_part_days is partitioned on PostgreSQL; a rename reaches its partitions).
ALTER TABLE "consumables" RENAME COLUMN "level" TO "raw_level";--> statement-breakpoint
ALTER TABLE "consumables" RENAME COLUMN "percent" TO "level";--> statement-breakpoint
ALTER TABLE "consumables" RENAME COLUMN "previous_percent" TO "previous_level";--> statement-breakpoint
ALTER INDEX "consumables_percent" RENAME TO "consumables_level";--> statement-breakpoint
ALTER TABLE "dm_device_part_days" RENAME COLUMN "level" TO "raw_level";--> statement-breakpoint
ALTER TABLE "dm_device_part_days" RENAME COLUMN "percent" TO "level";--> statement-breakpoint
ALTER TABLE "dm_device_part_days" RENAME COLUMN "min_percent" TO "min_level";
