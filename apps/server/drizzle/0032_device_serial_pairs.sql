CREATE TABLE "device_serial_pairs" (
	"pair" text NOT NULL,
	"id" integer NOT NULL,
	"location_id" integer NOT NULL,
	"model_code" varchar(250),
	"serial_number" varchar(100),
	"inventory_number" varchar(100),
	"host_name" varchar(255),
	"ip" varchar(45) NOT NULL,
	-- The primary key holds the rest too: a pair's devices and their sort values are one range of it.
	CONSTRAINT "device_serial_pairs_pair_id_pk" PRIMARY KEY("pair","id") INCLUDE ("location_id", "model_code", "serial_number", "inventory_number", "host_name", "ip")
);
--> statement-breakpoint
ALTER TABLE "device_serial_pairs" ADD CONSTRAINT "device_serial_pairs_id_devices_id_fk" FOREIGN KEY ("id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_serial_pairs_device" ON "device_serial_pairs" USING btree ("id");--> statement-breakpoint
-- A device's pairs are written again when its serial, or a text they carry, changes: on insert,
-- and on an update that changes one of them (a poll changes none).
CREATE FUNCTION device_serial_pairs_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM device_serial_pairs WHERE id = NEW.id;
  END IF;
  INSERT INTO device_serial_pairs (pair, id, location_id, model_code, serial_number, inventory_number, host_name, ip)
  SELECT p, NEW.id, NEW.location_id, NEW.model_code, NEW.serial_number, NEW.inventory_number, NEW.host_name, NEW.ip
  FROM unnest(pw_bigrams(NEW.serial_number)) AS p;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER device_serial_pairs_insert AFTER INSERT ON devices FOR EACH ROW EXECUTE FUNCTION device_serial_pairs_write();--> statement-breakpoint
CREATE TRIGGER device_serial_pairs_update AFTER UPDATE OF serial_number, location_id, model_code, inventory_number, host_name, ip ON devices FOR EACH ROW
  WHEN (OLD.serial_number IS DISTINCT FROM NEW.serial_number OR OLD.location_id IS DISTINCT FROM NEW.location_id OR OLD.model_code IS DISTINCT FROM NEW.model_code
    OR OLD.inventory_number IS DISTINCT FROM NEW.inventory_number OR OLD.host_name IS DISTINCT FROM NEW.host_name OR OLD.ip IS DISTINCT FROM NEW.ip)
  EXECUTE FUNCTION device_serial_pairs_write();--> statement-breakpoint
INSERT INTO device_serial_pairs (pair, id, location_id, model_code, serial_number, inventory_number, host_name, ip)
SELECT p, d.id, d.location_id, d.model_code, d.serial_number, d.inventory_number, d.host_name, d.ip
FROM devices d CROSS JOIN LATERAL unnest(pw_bigrams(d.serial_number)) AS p;--> statement-breakpoint
ANALYZE device_serial_pairs;