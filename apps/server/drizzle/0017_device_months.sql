CREATE TABLE "dm_device_months" (
	"month" date NOT NULL,
	"device_id" integer NOT NULL,
	"days_seen" integer NOT NULL,
	"days_up" integer NOT NULL,
	"total_open" bigint,
	"total_first" bigint,
	"total_last" bigint,
	"mono_open" bigint,
	"mono_first" bigint,
	"mono_last" bigint,
	"color_open" bigint,
	"color_first" bigint,
	"color_last" bigint,
	"total_steps" bigint,
	"mono_steps" bigint,
	"color_steps" bigint,
	"a3_steps" bigint,
	"a4_steps" bigint,
	"copy_steps" bigint,
	"scan_steps" bigint,
	"back_mask" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "dm_device_months_month_device_id_pk" PRIMARY KEY("month","device_id")
);
--> statement-breakpoint
ALTER TABLE "dm_device_months" ADD CONSTRAINT "dm_device_months_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dm_device_months_device" ON "dm_device_months" USING btree ("device_id","month");--> statement-breakpoint
-- Rebuilds the given (device, month) pairs from the days: each month's days and the last day
-- read before it, stepped from day to day as the reports do (a day stepping back adds nothing
-- and sets its counter's bit: bw 1, color 2, total 4, a3 8, a4 16, copy 32, scan 64).
CREATE FUNCTION dm_device_months_rebuild(device_ids integer[], months date[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM dm_device_months m USING unnest(device_ids, months) p(device_id, month) WHERE m.device_id = p.device_id AND m.month = p.month;
  INSERT INTO dm_device_months (month, device_id, days_seen, days_up, total_open, total_first, total_last, mono_open, mono_first, mono_last,
    color_open, color_first, color_last, total_steps, mono_steps, color_steps, a3_steps, a4_steps, copy_steps, scan_steps, back_mask)
  WITH series AS (
    SELECT p.month, s.* FROM unnest(device_ids, months) p(device_id, month) CROSS JOIN LATERAL (
      (SELECT true AS base, dd.device_id, dd.fact_date, dd.readings, dd.status_code, dd.total_start, dd.total_count, dd.mono_count, dd.color_count,
         dd.a3_count, dd.a4_count, dd.copy_count, dd.scan_count
       FROM dm_device_days dd WHERE dd.device_id = p.device_id AND dd.fact_date < p.month ORDER BY dd.fact_date DESC LIMIT 1)
      UNION ALL
      SELECT false, dd.device_id, dd.fact_date, dd.readings, dd.status_code, dd.total_start, dd.total_count, dd.mono_count, dd.color_count,
        dd.a3_count, dd.a4_count, dd.copy_count, dd.scan_count
      FROM dm_device_days dd WHERE dd.device_id = p.device_id AND dd.fact_date >= p.month AND dd.fact_date < (p.month + interval '1 month')::date) s),
  stepped AS (
    SELECT series.*,
      CASE WHEN lag(total_count) OVER w IS NULL THEN CASE WHEN NOT base THEN total_count - total_start END ELSE total_count - lag(total_count) OVER w END AS total_step,
      mono_count - lag(mono_count) OVER w AS mono_step, color_count - lag(color_count) OVER w AS color_step, a3_count - lag(a3_count) OVER w AS a3_step,
      a4_count - lag(a4_count) OVER w AS a4_step, copy_count - lag(copy_count) OVER w AS copy_step, scan_count - lag(scan_count) OVER w AS scan_step
    FROM series WINDOW w AS (PARTITION BY device_id, month ORDER BY fact_date))
  SELECT month, device_id,
    count(*) FILTER (WHERE NOT base AND readings > 0), count(*) FILTER (WHERE NOT base AND readings > 0 AND status_code IN ('OK', 'WARNING')),
    (array_agg(total_count) FILTER (WHERE base))[1], (array_agg(total_start ORDER BY fact_date) FILTER (WHERE NOT base AND total_start IS NOT NULL))[1],
    (array_agg(total_count ORDER BY fact_date DESC) FILTER (WHERE NOT base AND total_count IS NOT NULL))[1],
    (array_agg(mono_count) FILTER (WHERE base))[1], (array_agg(mono_count ORDER BY fact_date) FILTER (WHERE NOT base AND mono_count IS NOT NULL))[1],
    (array_agg(mono_count ORDER BY fact_date DESC) FILTER (WHERE NOT base AND mono_count IS NOT NULL))[1],
    (array_agg(color_count) FILTER (WHERE base))[1], (array_agg(color_count ORDER BY fact_date) FILTER (WHERE NOT base AND color_count IS NOT NULL))[1],
    (array_agg(color_count ORDER BY fact_date DESC) FILTER (WHERE NOT base AND color_count IS NOT NULL))[1],
    CASE WHEN count(total_count) FILTER (WHERE NOT base) > 0 THEN coalesce(sum(greatest(total_step, 0)), 0) END,
    CASE WHEN count(mono_count) FILTER (WHERE NOT base) > 0 THEN coalesce(sum(greatest(mono_step, 0)), 0) END,
    CASE WHEN count(color_count) FILTER (WHERE NOT base) > 0 THEN coalesce(sum(greatest(color_step, 0)), 0) END,
    CASE WHEN count(a3_count) FILTER (WHERE NOT base) > 0 THEN coalesce(sum(greatest(a3_step, 0)), 0) END,
    CASE WHEN count(a4_count) FILTER (WHERE NOT base) > 0 THEN coalesce(sum(greatest(a4_step, 0)), 0) END,
    CASE WHEN count(copy_count) FILTER (WHERE NOT base) > 0 THEN coalesce(sum(greatest(copy_step, 0)), 0) END,
    CASE WHEN count(scan_count) FILTER (WHERE NOT base) > 0 THEN coalesce(sum(greatest(scan_step, 0)), 0) END,
    (CASE WHEN bool_or(mono_step < 0) THEN 1 ELSE 0 END | CASE WHEN bool_or(color_step < 0) THEN 2 ELSE 0 END | CASE WHEN bool_or(total_step < 0) THEN 4 ELSE 0 END
      | CASE WHEN bool_or(a3_step < 0) THEN 8 ELSE 0 END | CASE WHEN bool_or(a4_step < 0) THEN 16 ELSE 0 END | CASE WHEN bool_or(copy_step < 0) THEN 32 ELSE 0 END
      | CASE WHEN bool_or(scan_step < 0) THEN 64 ELSE 0 END)::smallint
  FROM stepped GROUP BY month, device_id HAVING count(*) FILTER (WHERE NOT base) > 0;
$$;
--> statement-breakpoint
-- Days written: their months, and the device's later months (whose first day steps from them).
CREATE FUNCTION dm_device_days_roll_up() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dm_device_months_rebuild(array_agg(device_id), array_agg(month)) FROM (
    SELECT DISTINCT device_id, date_trunc('month', fact_date)::date AS month FROM changed_days
    UNION
    SELECT m.device_id, m.month FROM (SELECT device_id, min(fact_date) AS first FROM changed_days GROUP BY device_id) t
      JOIN dm_device_months m ON m.device_id = t.device_id AND m.month > t.first) p;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER dm_device_days_roll_up_insert AFTER INSERT ON dm_device_days REFERENCING NEW TABLE AS changed_days FOR EACH STATEMENT EXECUTE FUNCTION dm_device_days_roll_up();
--> statement-breakpoint
CREATE TRIGGER dm_device_days_roll_up_update AFTER UPDATE ON dm_device_days REFERENCING NEW TABLE AS changed_days FOR EACH STATEMENT EXECUTE FUNCTION dm_device_days_roll_up();
--> statement-breakpoint
CREATE TRIGGER dm_device_days_roll_up_delete AFTER DELETE ON dm_device_days REFERENCING OLD TABLE AS changed_days FOR EACH STATEMENT EXECUTE FUNCTION dm_device_days_roll_up();
--> statement-breakpoint
SELECT dm_device_months_rebuild(array_agg(device_id), array_agg(month)) FROM (SELECT DISTINCT device_id, date_trunc('month', fact_date)::date AS month FROM dm_device_days) p;
