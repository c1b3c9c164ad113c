-- An identity provider's address is checked as a notification channel's (issue 55, SSRF):
-- loopback and link-local addresses only where its administrator allowed them. A provider saved
-- before is checked too, from now on: one on such an address needs the box ticked again.
ALTER TABLE "identity_providers" ADD COLUMN "allow_internal" boolean DEFAULT false NOT NULL;
