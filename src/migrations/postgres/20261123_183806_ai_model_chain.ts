import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   ALTER TYPE "public"."enum_payload_jobs_log_task_slug" ADD VALUE 'draftCitizenAnswer' BEFORE 'schedulePublish';
  ALTER TYPE "public"."enum_payload_jobs_task_slug" ADD VALUE 'draftCitizenAnswer' BEFORE 'schedulePublish';
  CREATE TABLE "ai_drafts_failed_models" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"model" varchar NOT NULL,
  	"reason" varchar NOT NULL
  );
  
  ALTER TABLE "site_settings" ADD COLUMN "ai_fallback_models" varchar;
  ALTER TABLE "ai_drafts_failed_models" ADD CONSTRAINT "ai_drafts_failed_models_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."ai_drafts"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "ai_drafts_failed_models_order_idx" ON "ai_drafts_failed_models" USING btree ("_order");
  CREATE INDEX "ai_drafts_failed_models_parent_id_idx" ON "ai_drafts_failed_models" USING btree ("_parent_id");`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  // Hand-written data SQL: the old task enum has no draftCitizenAnswer, so its jobs (queued
  // answer drafts) go first; their questions stay, to be answered by hand.
  await db.execute(sql`
  DELETE FROM "payload_jobs_log" WHERE "task_slug" = 'draftCitizenAnswer';
  DELETE FROM "payload_jobs" WHERE "task_slug" = 'draftCitizenAnswer';`)
  await db.execute(sql`
   DROP TABLE "ai_drafts_failed_models" CASCADE;
  ALTER TABLE "payload_jobs_log" ALTER COLUMN "task_slug" SET DATA TYPE text;
  DROP TYPE "public"."enum_payload_jobs_log_task_slug";
  CREATE TYPE "public"."enum_payload_jobs_log_task_slug" AS ENUM('inline', 'schedulePublish');
  ALTER TABLE "payload_jobs_log" ALTER COLUMN "task_slug" SET DATA TYPE "public"."enum_payload_jobs_log_task_slug" USING "task_slug"::"public"."enum_payload_jobs_log_task_slug";
  ALTER TABLE "payload_jobs" ALTER COLUMN "task_slug" SET DATA TYPE text;
  DROP TYPE "public"."enum_payload_jobs_task_slug";
  CREATE TYPE "public"."enum_payload_jobs_task_slug" AS ENUM('inline', 'schedulePublish');
  ALTER TABLE "payload_jobs" ALTER COLUMN "task_slug" SET DATA TYPE "public"."enum_payload_jobs_task_slug" USING "task_slug"::"public"."enum_payload_jobs_task_slug";
  ALTER TABLE "site_settings" DROP COLUMN "ai_fallback_models";`)
}
