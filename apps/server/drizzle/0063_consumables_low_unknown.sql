-- What to order (issue 53): the supplies of unknown level whose state says LOW or EMPTY, per
-- location. The list's third branch read each location's supplies of unknown level through the
-- (location, level) index, about 1,000 a location, to keep none.
CREATE INDEX "consumables_location_low_unknown" ON "consumables" USING btree ("location_id") WHERE "level" IS NULL AND "level_state" IN ('LOW', 'EMPTY');
