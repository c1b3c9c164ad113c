CREATE TABLE "agent_runs" (
	"run_id" uuid PRIMARY KEY NOT NULL,
	"agent_id" integer NOT NULL,
	"log_id" bigint NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(250) NOT NULL,
	"description" text,
	"token_hash" char(64) NOT NULL,
	"status" varchar(20) DEFAULT 'STOPPED' NOT NULL,
	"status_message" text,
	"last_contact_at" timestamp with time zone,
	"version" varchar(50),
	"hostname" varchar(255),
	"platform" varchar(100),
	"location_id" integer NOT NULL,
	"config_version" integer DEFAULT 0 NOT NULL,
	"config_version_seen" integer DEFAULT 0 NOT NULL,
	"builtin" varchar(20),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agents_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "device_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_at" timestamp with time zone NOT NULL,
	"type" varchar(30) NOT NULL,
	"device_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	"supply_index" integer,
	"part_code" varchar(50),
	"part_model_code" varchar(100),
	"part_serial_number" varchar(100),
	"old_value" text,
	"new_value" text,
	"log_id" bigint,
	"processed" boolean DEFAULT false NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_ip_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"ip" varchar(45) NOT NULL,
	"old_ip" varchar(45),
	"changed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_supplies" (
	"device_id" integer NOT NULL,
	"supply_index" integer NOT NULL,
	"part_code" varchar(50) NOT NULL,
	"part_name" varchar(500) NOT NULL,
	"colorant" varchar(50),
	"supply_class" varchar(20),
	"part_model_code" varchar(100),
	"part_serial_number" varchar(100),
	"unit" varchar(30),
	"level" integer,
	"max_capacity" integer,
	"level_state" varchar(20),
	"percent" smallint,
	"previous_percent" smallint,
	"installed_at" timestamp with time zone,
	"refreshed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "device_supplies_device_id_supply_index_pk" PRIMARY KEY("device_id","supply_index")
);
--> statement-breakpoint
CREATE TABLE "device_walks" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"walked_at" timestamp with time zone NOT NULL,
	"sys_object_id" varchar(256),
	"sys_descr" text,
	"row_count" integer NOT NULL,
	"rows" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"model_code" varchar(250),
	"model_vendor_code" varchar(100),
	"profile_id" varchar(100),
	"serial_number" varchar(100),
	"inventory_number" varchar(100),
	"snmp_location" varchar(500),
	"host_name" varchar(255),
	"location_id" integer NOT NULL,
	"agent_id" integer,
	"range_id" integer,
	"ip" varchar(45) NOT NULL,
	"port" integer DEFAULT 161 NOT NULL,
	"mac_address" varchar(17),
	"firmware" varchar(250),
	"sys_object_id" varchar(256),
	"sys_descr" text,
	"device_type" varchar(20),
	"color_type" varchar(20),
	"paper_format" varchar(20),
	"status_code" varchar(20) DEFAULT 'UNKNOWN' NOT NULL,
	"snmp_status_code" varchar(20),
	"printer_status" varchar(20),
	"scanner_status" varchar(20),
	"error_state_hex" varchar(16),
	"error_bits" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refreshed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"walk_refreshed_at" timestamp with time zone,
	"managed_flag" boolean DEFAULT true NOT NULL,
	"comment" text,
	"total_count" bigint,
	"total_unit" varchar(30),
	"power_on_count" bigint,
	"mono_count" bigint,
	"color_count" bigint,
	"a3_count" bigint,
	"a4_count" bigint,
	"copy_count" bigint,
	"scan_count" bigint,
	"fax_count" bigint,
	"duplex_count" bigint,
	"vendor_counters" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"toner_black" smallint,
	"toner_cyan" smallint,
	"toner_magenta" smallint,
	"toner_yellow" smallint,
	"new_device30_flag" boolean DEFAULT true NOT NULL,
	"not_available_flag" boolean DEFAULT false NOT NULL,
	"mat_replacement_required_flag" boolean DEFAULT false NOT NULL,
	"need_attention_flag" boolean DEFAULT false NOT NULL,
	"counter_backwards_at" timestamp with time zone,
	"missed_polls" integer DEFAULT 0 NOT NULL,
	"last_run_id" uuid,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"trays" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dm_device_days" (
	"fact_date" date NOT NULL,
	"device_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	"total_count" bigint,
	"mono_count" bigint,
	"color_count" bigint,
	"a3_count" bigint,
	"a4_count" bigint,
	"copy_count" bigint,
	"scan_count" bigint,
	"fax_count" bigint,
	"duplex_count" bigint,
	"total_start" bigint,
	"readings" integer DEFAULT 0 NOT NULL,
	"status_code" varchar(20),
	"counter_backwards" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dm_device_days_fact_date_device_id_pk" PRIMARY KEY("fact_date","device_id")
);
--> statement-breakpoint
CREATE TABLE "dm_device_part_days" (
	"fact_date" date NOT NULL,
	"device_id" integer NOT NULL,
	"supply_index" integer NOT NULL,
	"part_code" varchar(50) NOT NULL,
	"colorant" varchar(50),
	"part_model_code" varchar(100),
	"part_serial_number" varchar(100),
	"level" integer,
	"level_state" varchar(20),
	"percent" smallint,
	"min_percent" smallint,
	"replaced" boolean DEFAULT false NOT NULL,
	CONSTRAINT "dm_device_part_days_fact_date_device_id_supply_index_pk" PRIMARY KEY("fact_date","device_id","supply_index")
);
--> statement-breakpoint
CREATE TABLE "ingested_readings" (
	"reading_id" uuid PRIMARY KEY NOT NULL,
	"agent_id" integer,
	"device_id" integer,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "models_packs" (
	"version" integer PRIMARY KEY NOT NULL,
	"pack" jsonb NOT NULL,
	"released_at" varchar(40),
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uploaded_by" integer
);
--> statement-breakpoint
CREATE TABLE "network_ranges" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(250),
	"type" varchar(20) NOT NULL,
	"address" varchar(15),
	"mask" varchar(15),
	"ip_from" varchar(15),
	"ip_to" varchar(15),
	"port" integer DEFAULT 161 NOT NULL,
	"snmp_version" varchar(2) DEFAULT '2c' NOT NULL,
	"community" varchar(255),
	"v3_user" varchar(255),
	"v3_level" varchar(20),
	"v3_auth_protocol" varchar(10),
	"v3_auth_key" varchar(255),
	"v3_priv_protocol" varchar(10),
	"v3_priv_key" varchar(255),
	"agent_id" integer,
	"location_id" integer NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_runs" ADD CONSTRAINT "agent_runs_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_events" ADD CONSTRAINT "device_events_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_ip_history" ADD CONSTRAINT "device_ip_history_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_supplies" ADD CONSTRAINT "device_supplies_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_walks" ADD CONSTRAINT "device_walks_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_range_id_network_ranges_id_fk" FOREIGN KEY ("range_id") REFERENCES "public"."network_ranges"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dm_device_days" ADD CONSTRAINT "dm_device_days_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dm_device_part_days" ADD CONSTRAINT "dm_device_part_days_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "models_packs" ADD CONSTRAINT "models_packs_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_ranges" ADD CONSTRAINT "network_ranges_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_ranges" ADD CONSTRAINT "network_ranges_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_runs_agent_started" ON "agent_runs" USING btree ("agent_id","started_at");--> statement-breakpoint
CREATE INDEX "agents_location" ON "agents" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "device_events_device" ON "device_events" USING btree ("device_id","event_at");--> statement-breakpoint
CREATE INDEX "device_events_unprocessed" ON "device_events" USING btree ("id") WHERE NOT "device_events"."processed";--> statement-breakpoint
CREATE INDEX "device_events_type_at" ON "device_events" USING btree ("type","event_at");--> statement-breakpoint
CREATE INDEX "device_ip_history_device" ON "device_ip_history" USING btree ("device_id","changed_at");--> statement-breakpoint
CREATE INDEX "device_supplies_percent" ON "device_supplies" USING btree ("percent");--> statement-breakpoint
CREATE INDEX "devices_location" ON "devices" USING btree ("location_id","id");--> statement-breakpoint
CREATE INDEX "devices_serial" ON "devices" USING btree (lower("serial_number"));--> statement-breakpoint
CREATE INDEX "devices_mac" ON "devices" USING btree ("mac_address");--> statement-breakpoint
CREATE INDEX "devices_ip" ON "devices" USING btree ("ip");--> statement-breakpoint
CREATE INDEX "devices_agent" ON "devices" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "devices_range" ON "devices" USING btree ("range_id");--> statement-breakpoint
CREATE INDEX "devices_model" ON "devices" USING btree ("model_code");--> statement-breakpoint
CREATE INDEX "devices_status" ON "devices" USING btree ("status_code");--> statement-breakpoint
CREATE INDEX "devices_refreshed" ON "devices" USING btree ("refreshed_at");--> statement-breakpoint
CREATE INDEX "devices_inventory" ON "devices" USING btree ("inventory_number");--> statement-breakpoint
CREATE INDEX "dm_device_days_device" ON "dm_device_days" USING btree ("device_id","fact_date");--> statement-breakpoint
CREATE INDEX "dm_device_part_days_device" ON "dm_device_part_days" USING btree ("device_id","fact_date");--> statement-breakpoint
CREATE INDEX "ingested_readings_received" ON "ingested_readings" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "network_ranges_agent" ON "network_ranges" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "network_ranges_location" ON "network_ranges" USING btree ("location_id");