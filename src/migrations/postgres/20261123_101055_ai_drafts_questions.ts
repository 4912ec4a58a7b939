import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE TYPE "public"."enum_ai_drafts_task" AS ENUM('post-draft', 'layer-description', 'colour-suggestion', 'documentation', 'sample-data', 'search-keywords', 'citizen-answer');
  CREATE TYPE "public"."enum_ai_drafts_status" AS ENUM('pending_review', 'approved', 'rejected', 'applied');
  CREATE TYPE "public"."enum_ai_drafts_target_collection" AS ENUM('posts', 'pages', 'map-layers', 'questions');
  CREATE TYPE "public"."enum_questions_status" AS ENUM('received', 'answered', 'declined');
  CREATE TABLE "ai_drafts" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"task" "enum_ai_drafts_task" NOT NULL,
  	"draft" varchar NOT NULL,
  	"status" "enum_ai_drafts_status" DEFAULT 'pending_review' NOT NULL,
  	"requires_approval" boolean DEFAULT true NOT NULL,
  	"reviewer_id" integer,
  	"approved_at" timestamp(3) with time zone,
  	"target_collection" "enum_ai_drafts_target_collection",
  	"target_doc_id" varchar,
  	"target_field" varchar,
  	"model" varchar,
  	"prompt" varchar,
  	"input" jsonb,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "questions" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"question" varchar NOT NULL,
  	"city" varchar,
  	"status" "enum_questions_status" DEFAULT 'received' NOT NULL,
  	"answer" varchar,
  	"answered_at" timestamp(3) with time zone,
  	"answer_draft_id" integer,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  ALTER TABLE "search" ADD COLUMN "keywords" varchar;
  ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "ai_drafts_id" integer;
  ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "questions_id" integer;
  ALTER TABLE "ai_drafts" ADD CONSTRAINT "ai_drafts_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "questions" ADD CONSTRAINT "questions_answer_draft_id_ai_drafts_id_fk" FOREIGN KEY ("answer_draft_id") REFERENCES "public"."ai_drafts"("id") ON DELETE set null ON UPDATE no action;
  CREATE INDEX "ai_drafts_task_idx" ON "ai_drafts" USING btree ("task");
  CREATE INDEX "ai_drafts_status_idx" ON "ai_drafts" USING btree ("status");
  CREATE INDEX "ai_drafts_reviewer_idx" ON "ai_drafts" USING btree ("reviewer_id");
  CREATE INDEX "ai_drafts_updated_at_idx" ON "ai_drafts" USING btree ("updated_at");
  CREATE INDEX "ai_drafts_created_at_idx" ON "ai_drafts" USING btree ("created_at");
  CREATE INDEX "questions_status_idx" ON "questions" USING btree ("status");
  CREATE INDEX "questions_answer_draft_idx" ON "questions" USING btree ("answer_draft_id");
  CREATE INDEX "questions_updated_at_idx" ON "questions" USING btree ("updated_at");
  CREATE INDEX "questions_created_at_idx" ON "questions" USING btree ("created_at");
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_ai_drafts_fk" FOREIGN KEY ("ai_drafts_id") REFERENCES "public"."ai_drafts"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_questions_fk" FOREIGN KEY ("questions_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "payload_locked_documents_rels_ai_drafts_id_idx" ON "payload_locked_documents_rels" USING btree ("ai_drafts_id");
  CREATE INDEX "payload_locked_documents_rels_questions_id_idx" ON "payload_locked_documents_rels" USING btree ("questions_id");`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "ai_drafts" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "questions" DISABLE ROW LEVEL SECURITY;
  DROP TABLE "ai_drafts" CASCADE;
  DROP TABLE "questions" CASCADE;
  ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT "payload_locked_documents_rels_ai_drafts_fk";
  
  ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT "payload_locked_documents_rels_questions_fk";
  
  DROP INDEX "payload_locked_documents_rels_ai_drafts_id_idx";
  DROP INDEX "payload_locked_documents_rels_questions_id_idx";
  ALTER TABLE "search" DROP COLUMN "keywords";
  ALTER TABLE "payload_locked_documents_rels" DROP COLUMN "ai_drafts_id";
  ALTER TABLE "payload_locked_documents_rels" DROP COLUMN "questions_id";
  DROP TYPE "public"."enum_ai_drafts_task";
  DROP TYPE "public"."enum_ai_drafts_status";
  DROP TYPE "public"."enum_ai_drafts_target_collection";
  DROP TYPE "public"."enum_questions_status";`)
}
