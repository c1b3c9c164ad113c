-- Supplies and devices are written at every poll, and an update that changes an indexed column
-- adds entries to every index, their GIN indexes too. GIN keeps new entries in a list that every
-- search reads whole until they are merged, 4 MB of it by default: after 12,000 supplies were
-- written, a part name search took 7.1 ms instead of 0.8 ms. 256 kB (as the event log's, 0027):
-- the list is merged more often, about 10 µs more for each row written. The setting a rebuild
-- would give, without rebuilding the indexes.
ALTER INDEX "consumables_part_name_trgm" SET (gin_pending_list_limit=256);--> statement-breakpoint
ALTER INDEX "consumables_part_model_trgm" SET (gin_pending_list_limit=256);--> statement-breakpoint
ALTER INDEX "devices_serial_trgm" SET (gin_pending_list_limit=256);--> statement-breakpoint
ALTER INDEX "devices_inventory_trgm" SET (gin_pending_list_limit=256);--> statement-breakpoint
ALTER INDEX "devices_model_trgm" SET (gin_pending_list_limit=256);--> statement-breakpoint
ALTER INDEX "devices_host_trgm" SET (gin_pending_list_limit=256);--> statement-breakpoint
ALTER INDEX "devices_ip_trgm" SET (gin_pending_list_limit=256);--> statement-breakpoint
ALTER INDEX "devices_snmp_location_trgm" SET (gin_pending_list_limit=256);--> statement-breakpoint
ALTER INDEX "devices_serial_bigrams" SET (gin_pending_list_limit=256);
