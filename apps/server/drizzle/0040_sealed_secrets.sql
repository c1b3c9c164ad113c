-- Secrets are stored encrypted (issue 43): `enc:v1:<key id>:<iv>:<tag>:<ciphertext>` is longer
-- than the 255 characters these columns allowed. The server seals the plain values at its first
-- start after this migration (SQL has no access to the key, which is kept outside the database).
ALTER TABLE "queues" ALTER COLUMN "password" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "network_ranges" ALTER COLUMN "community" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "network_ranges" ALTER COLUMN "v3_auth_key" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "network_ranges" ALTER COLUMN "v3_priv_key" SET DATA TYPE text;
