CREATE TABLE "queue_jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"queue_id" integer NOT NULL,
	"external_job_id" integer NOT NULL,
	"device_id" integer,
	"name" varchar(255),
	"created_at" timestamp with time zone,
	"completed_at" timestamp with time zone NOT NULL,
	"username" varchar(255) NOT NULL,
	"client_machine" varchar(255),
	"printed_page_count" integer NOT NULL,
	"color_page_count" integer,
	"size_kb" integer,
	"paper_size" varchar(100),
	"duplex" boolean
);
--> statement-breakpoint
CREATE TABLE "queues" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" varchar(20) NOT NULL,
	"agent_id" integer NOT NULL,
	"host" varchar(253) NOT NULL,
	"port" integer NOT NULL,
	"url" varchar(1000),
	"username" varchar(255),
	"password" varchar(255),
	"token" text,
	"status" varchar(10) DEFAULT 'NEW' NOT NULL,
	"status_message" varchar(2000),
	"last_read_at" timestamp with time zone,
	"last_job_id" integer,
	"state_version" integer DEFAULT 0 NOT NULL,
	"printer_address" varchar(253),
	"device_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "queue_jobs" ADD CONSTRAINT "queue_jobs_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_jobs" ADD CONSTRAINT "queue_jobs_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "queue_jobs_key" ON "queue_jobs" USING btree ("queue_id","external_job_id");--> statement-breakpoint
CREATE INDEX "queue_jobs_queue_completed" ON "queue_jobs" USING btree ("queue_id","completed_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "queue_jobs_queue_user" ON "queue_jobs" USING btree ("queue_id","username" NULLS FIRST,"completed_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "queues_agent" ON "queues" USING btree ("agent_id");