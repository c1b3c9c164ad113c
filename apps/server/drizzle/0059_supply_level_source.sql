-- Where each supply's level came from (issue 57), as the agent reports it: the Printer-MIB's
-- prtMarkerSuppliesLevel, or a vendor's source such as Brother's maintenance record. Null for
-- the supplies of an agent before it (nothing is known) until their next reading.
ALTER TABLE "consumables" ADD COLUMN "level_source" varchar(300);
