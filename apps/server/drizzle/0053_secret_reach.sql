-- Who set a stored secret (issue 52): the own locations of the user who gave a range's community
-- or v3 keys, or a queue's password or token. Renewing the token of the agent that reads them
-- needs every one of these locations in the caller's scope. Secrets stored before this version
-- have no known setter: they are taken as the default administrator's (the DEFAULT location),
-- until someone who reaches it, or who gives them again, sets them.
ALTER TABLE "network_ranges" ADD COLUMN "secret_reach" integer[];--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "secret_reach" integer[];--> statement-breakpoint
UPDATE "network_ranges" SET "secret_reach" = ARRAY(SELECT id FROM locations WHERE code = 'DEFAULT')
  WHERE coalesce("community", '') <> '' OR coalesce("v3_auth_key", '') <> '' OR coalesce("v3_priv_key", '') <> '';--> statement-breakpoint
UPDATE "queues" SET "secret_reach" = ARRAY(SELECT id FROM locations WHERE code = 'DEFAULT')
  WHERE coalesce("password", '') <> '' OR coalesce("token", '') <> '';
