import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE TYPE "public"."enum_accessibility_reports_status" AS ENUM('new', 'in-progress', 'resolved');
  CREATE TYPE "public"."enum_accessibility_statement_non_accessible_content_reason" AS ENUM('non-compliance', 'disproportionate-burden', 'outside-scope');
  CREATE TYPE "public"."enum_accessibility_statement_conformance" AS ENUM('fully', 'partially', 'not');
  CREATE TYPE "public"."enum_accessibility_statement_method" AS ENUM('self-assessment', 'third-party');
  CREATE TABLE "accessibility_reports" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"description" varchar NOT NULL,
  	"page_url" varchar,
  	"email" varchar,
  	"locale" varchar,
  	"status" "enum_accessibility_reports_status" DEFAULT 'new' NOT NULL,
  	"staff_notes" varchar,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "accessibility_statement_non_accessible_content" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"reason" "enum_accessibility_statement_non_accessible_content_reason" DEFAULT 'non-compliance' NOT NULL
  );
  
  CREATE TABLE "accessibility_statement_non_accessible_content_locales" (
  	"title" varchar NOT NULL,
  	"description" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" varchar NOT NULL
  );
  
  CREATE TABLE "accessibility_statement" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"conformance" "enum_accessibility_statement_conformance" DEFAULT 'partially' NOT NULL,
  	"prepared_at" timestamp(3) with time zone,
  	"reviewed_at" timestamp(3) with time zone,
  	"method" "enum_accessibility_statement_method" DEFAULT 'self-assessment' NOT NULL,
  	"feedback_email" varchar,
  	"feedback_phone" varchar,
  	"updated_at" timestamp(3) with time zone,
  	"created_at" timestamp(3) with time zone
  );
  
  CREATE TABLE "accessibility_statement_locales" (
  	"organisation" varchar,
  	"site_name" varchar,
  	"feedback_text" varchar,
  	"enforcement" varchar,
  	"free_text" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "accessibility_reports_id" integer;
  ALTER TABLE "accessibility_statement_non_accessible_content" ADD CONSTRAINT "accessibility_statement_non_accessible_content_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."accessibility_statement"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "accessibility_statement_non_accessible_content_locales" ADD CONSTRAINT "accessibility_statement_non_accessible_content_locales_pa_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."accessibility_statement_non_accessible_content"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "accessibility_statement_locales" ADD CONSTRAINT "accessibility_statement_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."accessibility_statement"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "accessibility_reports_status_idx" ON "accessibility_reports" USING btree ("status");
  CREATE INDEX "accessibility_reports_updated_at_idx" ON "accessibility_reports" USING btree ("updated_at");
  CREATE INDEX "accessibility_reports_created_at_idx" ON "accessibility_reports" USING btree ("created_at");
  CREATE INDEX "accessibility_statement_non_accessible_content_order_idx" ON "accessibility_statement_non_accessible_content" USING btree ("_order");
  CREATE INDEX "accessibility_statement_non_accessible_content_parent_id_idx" ON "accessibility_statement_non_accessible_content" USING btree ("_parent_id");
  CREATE UNIQUE INDEX "accessibility_statement_non_accessible_content_locales_local" ON "accessibility_statement_non_accessible_content_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "accessibility_statement_locales_locale_parent_id_unique" ON "accessibility_statement_locales" USING btree ("_locale","_parent_id");
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_accessibility_reports_fk" FOREIGN KEY ("accessibility_reports_id") REFERENCES "public"."accessibility_reports"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "payload_locked_documents_rels_accessibility_reports_id_idx" ON "payload_locked_documents_rels" USING btree ("accessibility_reports_id");`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "accessibility_reports" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "accessibility_statement_non_accessible_content" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "accessibility_statement_non_accessible_content_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "accessibility_statement" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "accessibility_statement_locales" DISABLE ROW LEVEL SECURITY;
  DROP TABLE "accessibility_reports" CASCADE;
  DROP TABLE "accessibility_statement_non_accessible_content" CASCADE;
  DROP TABLE "accessibility_statement_non_accessible_content_locales" CASCADE;
  DROP TABLE "accessibility_statement" CASCADE;
  DROP TABLE "accessibility_statement_locales" CASCADE;
  ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT "payload_locked_documents_rels_accessibility_reports_fk";
  
  DROP INDEX "payload_locked_documents_rels_accessibility_reports_id_idx";
  ALTER TABLE "payload_locked_documents_rels" DROP COLUMN "accessibility_reports_id";
  DROP TYPE "public"."enum_accessibility_reports_status";
  DROP TYPE "public"."enum_accessibility_statement_non_accessible_content_reason";
  DROP TYPE "public"."enum_accessibility_statement_conformance";
  DROP TYPE "public"."enum_accessibility_statement_method";`)
}
