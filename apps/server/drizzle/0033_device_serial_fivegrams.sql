-- Five characters of a serial or more that few devices hold ("00777": 111 devices, 348 supplies
-- on 100,000 devices): their five-grams find them through one prepared statement for any text,
-- as the event log's messages are found (migration 0027), where the trigram index's statement
-- was planned for each text (0.4 ms of the 1.3 ms its supplies' page took, bench:lists).
CREATE INDEX "devices_serial_fivegrams" ON "devices" USING gin (pw_fivegrams("serial_number")) WITH (gin_pending_list_limit=256);--> statement-breakpoint
ANALYZE devices;