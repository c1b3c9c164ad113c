-- The language of a user's e-mails: the one their browser asked for at their last sign-in (the
-- console follows the browser); none yet means the server's (PAGEWATCH_LANGUAGE).
ALTER TABLE "users" ADD COLUMN "language" varchar(2);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_language" CHECK ("language" IN ('en', 'ru'));
