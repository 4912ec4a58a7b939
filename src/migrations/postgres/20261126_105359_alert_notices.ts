import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE TYPE "public"."enum_alert_subscriptions_minimum_level" AS ENUM('info', 'warning', 'critical');
  CREATE TYPE "public"."enum_alert_subscriptions_status" AS ENUM('pending', 'confirmed');
  CREATE TYPE "public"."enum_alert_notices_level" AS ENUM('info', 'warning', 'critical');
  ALTER TYPE "public"."enum_payload_jobs_log_task_slug" ADD VALUE 'fanOutAlertNotices' BEFORE 'schedulePublish';
  ALTER TYPE "public"."enum_payload_jobs_log_task_slug" ADD VALUE 'sendAlertDigest' BEFORE 'schedulePublish';
  ALTER TYPE "public"."enum_payload_jobs_task_slug" ADD VALUE 'fanOutAlertNotices' BEFORE 'schedulePublish';
  ALTER TYPE "public"."enum_payload_jobs_task_slug" ADD VALUE 'sendAlertDigest' BEFORE 'schedulePublish';
  CREATE TABLE "alert_subscriptions" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"email" varchar NOT NULL,
  	"subscriber_key" varchar NOT NULL,
  	"layer_id" integer NOT NULL,
  	"city" varchar NOT NULL,
  	"minimum_level" "enum_alert_subscriptions_minimum_level" DEFAULT 'warning' NOT NULL,
  	"status" "enum_alert_subscriptions_status" DEFAULT 'pending' NOT NULL,
  	"confirmed_at" timestamp(3) with time zone,
  	"quiet_hours_enabled" boolean DEFAULT false,
  	"quiet_hours_from" numeric,
  	"quiet_hours_until" numeric,
  	"quiet_hours_time_zone" varchar,
  	"quiet_hours_digest_due_at" timestamp(3) with time zone,
  	"secret" varchar NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "alert_notices" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"key" varchar NOT NULL,
  	"place" varchar NOT NULL,
  	"sequence" numeric NOT NULL,
  	"layer_id" integer NOT NULL,
  	"city" varchar,
  	"feature_id" varchar NOT NULL,
  	"place_name" varchar,
  	"level" "enum_alert_notices_level" NOT NULL,
  	"message" varchar NOT NULL,
  	"fired_at" timestamp(3) with time zone NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "held_alert_notices" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"subscription_id" integer NOT NULL,
  	"notice_id" integer NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "alert_subscriptions_id" integer;
  ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "alert_notices_id" integer;
  ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "held_alert_notices_id" integer;
  ALTER TABLE "site_settings" ADD COLUMN "alert_notices_period_minutes" numeric DEFAULT 60 NOT NULL;
  ALTER TABLE "alert_subscriptions" ADD CONSTRAINT "alert_subscriptions_layer_id_map_layers_id_fk" FOREIGN KEY ("layer_id") REFERENCES "public"."map_layers"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "alert_notices" ADD CONSTRAINT "alert_notices_layer_id_map_layers_id_fk" FOREIGN KEY ("layer_id") REFERENCES "public"."map_layers"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "held_alert_notices" ADD CONSTRAINT "held_alert_notices_subscription_id_alert_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."alert_subscriptions"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "held_alert_notices" ADD CONSTRAINT "held_alert_notices_notice_id_alert_notices_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."alert_notices"("id") ON DELETE set null ON UPDATE no action;
  CREATE UNIQUE INDEX "alert_subscriptions_subscriber_key_idx" ON "alert_subscriptions" USING btree ("subscriber_key");
  CREATE INDEX "alert_subscriptions_layer_idx" ON "alert_subscriptions" USING btree ("layer_id");
  CREATE INDEX "alert_subscriptions_city_idx" ON "alert_subscriptions" USING btree ("city");
  CREATE INDEX "alert_subscriptions_status_idx" ON "alert_subscriptions" USING btree ("status");
  CREATE INDEX "alert_subscriptions_updated_at_idx" ON "alert_subscriptions" USING btree ("updated_at");
  CREATE INDEX "alert_subscriptions_created_at_idx" ON "alert_subscriptions" USING btree ("created_at");
  CREATE UNIQUE INDEX "alert_notices_key_idx" ON "alert_notices" USING btree ("key");
  CREATE INDEX "alert_notices_place_idx" ON "alert_notices" USING btree ("place");
  CREATE INDEX "alert_notices_layer_idx" ON "alert_notices" USING btree ("layer_id");
  CREATE INDEX "alert_notices_fired_at_idx" ON "alert_notices" USING btree ("fired_at");
  CREATE INDEX "alert_notices_updated_at_idx" ON "alert_notices" USING btree ("updated_at");
  CREATE INDEX "alert_notices_created_at_idx" ON "alert_notices" USING btree ("created_at");
  CREATE INDEX "held_alert_notices_subscription_idx" ON "held_alert_notices" USING btree ("subscription_id");
  CREATE INDEX "held_alert_notices_notice_idx" ON "held_alert_notices" USING btree ("notice_id");
  CREATE INDEX "held_alert_notices_updated_at_idx" ON "held_alert_notices" USING btree ("updated_at");
  CREATE INDEX "held_alert_notices_created_at_idx" ON "held_alert_notices" USING btree ("created_at");
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_alert_subscriptions_fk" FOREIGN KEY ("alert_subscriptions_id") REFERENCES "public"."alert_subscriptions"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_alert_notices_fk" FOREIGN KEY ("alert_notices_id") REFERENCES "public"."alert_notices"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_held_alert_notices_fk" FOREIGN KEY ("held_alert_notices_id") REFERENCES "public"."held_alert_notices"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "payload_locked_documents_rels_alert_subscriptions_id_idx" ON "payload_locked_documents_rels" USING btree ("alert_subscriptions_id");
  CREATE INDEX "payload_locked_documents_rels_alert_notices_id_idx" ON "payload_locked_documents_rels" USING btree ("alert_notices_id");
  CREATE INDEX "payload_locked_documents_rels_held_alert_notices_id_idx" ON "payload_locked_documents_rels" USING btree ("held_alert_notices_id");`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "alert_subscriptions" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "alert_notices" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "held_alert_notices" DISABLE ROW LEVEL SECURITY;
  DROP TABLE "alert_subscriptions" CASCADE;
  DROP TABLE "alert_notices" CASCADE;
  DROP TABLE "held_alert_notices" CASCADE;
  ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT "payload_locked_documents_rels_alert_subscriptions_fk";
  
  ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT "payload_locked_documents_rels_alert_notices_fk";
  
  ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT "payload_locked_documents_rels_held_alert_notices_fk";
  
  ALTER TABLE "payload_jobs_log" ALTER COLUMN "task_slug" SET DATA TYPE text;
  DROP TYPE "public"."enum_payload_jobs_log_task_slug";
  CREATE TYPE "public"."enum_payload_jobs_log_task_slug" AS ENUM('inline', 'draftCitizenAnswer', 'sendMail', 'schedulePublish');
  ALTER TABLE "payload_jobs_log" ALTER COLUMN "task_slug" SET DATA TYPE "public"."enum_payload_jobs_log_task_slug" USING "task_slug"::"public"."enum_payload_jobs_log_task_slug";
  ALTER TABLE "payload_jobs" ALTER COLUMN "task_slug" SET DATA TYPE text;
  DROP TYPE "public"."enum_payload_jobs_task_slug";
  CREATE TYPE "public"."enum_payload_jobs_task_slug" AS ENUM('inline', 'draftCitizenAnswer', 'sendMail', 'schedulePublish');
  ALTER TABLE "payload_jobs" ALTER COLUMN "task_slug" SET DATA TYPE "public"."enum_payload_jobs_task_slug" USING "task_slug"::"public"."enum_payload_jobs_task_slug";
  DROP INDEX "payload_locked_documents_rels_alert_subscriptions_id_idx";
  DROP INDEX "payload_locked_documents_rels_alert_notices_id_idx";
  DROP INDEX "payload_locked_documents_rels_held_alert_notices_id_idx";
  ALTER TABLE "payload_locked_documents_rels" DROP COLUMN "alert_subscriptions_id";
  ALTER TABLE "payload_locked_documents_rels" DROP COLUMN "alert_notices_id";
  ALTER TABLE "payload_locked_documents_rels" DROP COLUMN "held_alert_notices_id";
  ALTER TABLE "site_settings" DROP COLUMN "alert_notices_period_minutes";
  DROP TYPE "public"."enum_alert_subscriptions_minimum_level";
  DROP TYPE "public"."enum_alert_subscriptions_status";
  DROP TYPE "public"."enum_alert_notices_level";`)
}
