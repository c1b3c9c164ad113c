-- A counter reset (a board swap) is one act (issue 54): the corrections that carry every meter
-- of a device over at once share the id of the first of them, so they are listed, flagged and
-- withdrawn together. A correction entered alone has none.
ALTER TABLE "meter_corrections" ADD COLUMN "reset_id" integer;--> statement-breakpoint
CREATE INDEX "meter_corrections_reset" ON "meter_corrections" USING btree ("reset_id");
