import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  // --- Hand-written data: operators renamed while the columns are text, keep when regenerating ---
  await db.execute(sql`
   ALTER TABLE "map_layers_source_filters" ALTER COLUMN "operator" DROP DEFAULT;
  ALTER TABLE "map_layers_source_filters" ALTER COLUMN "operator" SET DATA TYPE text;
  ALTER TABLE "map_layers_alert_rules" ALTER COLUMN "operator" SET DATA TYPE text;
  UPDATE "map_layers_source_filters" SET "operator" = CASE "operator" WHEN '==' THEN 'eq' WHEN '!=' THEN 'ne' WHEN '>' THEN 'gt' WHEN '>=' THEN 'gte' WHEN '<' THEN 'lt' WHEN '<=' THEN 'lte' ELSE "operator" END;
  UPDATE "map_layers_alert_rules" SET "operator" = CASE "operator" WHEN '==' THEN 'eq' WHEN '!=' THEN 'ne' WHEN '>' THEN 'gt' WHEN '>=' THEN 'gte' WHEN '<' THEN 'lt' WHEN '<=' THEN 'lte' ELSE "operator" END;`)
  // --- end of hand-written data ---
  await db.execute(sql`
   ALTER TABLE "map_layers_source_filters" ALTER COLUMN "operator" SET DATA TYPE text;
  ALTER TABLE "map_layers_source_filters" ALTER COLUMN "operator" SET DEFAULT 'eq'::text;
  DROP TYPE "public"."enum_map_layers_source_filters_operator";
  CREATE TYPE "public"."enum_map_layers_source_filters_operator" AS ENUM('eq', 'ne', 'gt', 'gte', 'lt', 'lte');
  ALTER TABLE "map_layers_source_filters" ALTER COLUMN "operator" SET DEFAULT 'eq'::"public"."enum_map_layers_source_filters_operator";
  ALTER TABLE "map_layers_source_filters" ALTER COLUMN "operator" SET DATA TYPE "public"."enum_map_layers_source_filters_operator" USING "operator"::"public"."enum_map_layers_source_filters_operator";
  ALTER TABLE "map_layers_alert_rules" ALTER COLUMN "operator" SET DATA TYPE text;
  DROP TYPE "public"."enum_map_layers_alert_rules_operator";
  CREATE TYPE "public"."enum_map_layers_alert_rules_operator" AS ENUM('gt', 'gte', 'lt', 'lte', 'eq', 'ne', 'between', 'outside', 'contains', 'missing', 'stale');
  ALTER TABLE "map_layers_alert_rules" ALTER COLUMN "operator" SET DATA TYPE "public"."enum_map_layers_alert_rules_operator" USING "operator"::"public"."enum_map_layers_alert_rules_operator";
  ALTER TABLE "users" ADD COLUMN "first_admin_claim" varchar;
  CREATE UNIQUE INDEX "users_first_admin_claim_idx" ON "users" USING btree ("first_admin_claim");`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  // --- Hand-written data: operators renamed while the columns are text, keep when regenerating ---
  await db.execute(sql`
   ALTER TABLE "map_layers_source_filters" ALTER COLUMN "operator" DROP DEFAULT;
  ALTER TABLE "map_layers_source_filters" ALTER COLUMN "operator" SET DATA TYPE text;
  ALTER TABLE "map_layers_alert_rules" ALTER COLUMN "operator" SET DATA TYPE text;
  UPDATE "map_layers_source_filters" SET "operator" = CASE "operator" WHEN 'eq' THEN '==' WHEN 'ne' THEN '!=' WHEN 'gt' THEN '>' WHEN 'gte' THEN '>=' WHEN 'lt' THEN '<' WHEN 'lte' THEN '<=' ELSE "operator" END;
  UPDATE "map_layers_alert_rules" SET "operator" = CASE "operator" WHEN 'eq' THEN '==' WHEN 'ne' THEN '!=' WHEN 'gt' THEN '>' WHEN 'gte' THEN '>=' WHEN 'lt' THEN '<' WHEN 'lte' THEN '<=' ELSE "operator" END;`)
  // --- end of hand-written data ---
  await db.execute(sql`
   ALTER TABLE "map_layers_source_filters" ALTER COLUMN "operator" SET DATA TYPE text;
  ALTER TABLE "map_layers_source_filters" ALTER COLUMN "operator" SET DEFAULT '=='::text;
  DROP TYPE "public"."enum_map_layers_source_filters_operator";
  CREATE TYPE "public"."enum_map_layers_source_filters_operator" AS ENUM('==', '!=', '>', '>=', '<', '<=');
  ALTER TABLE "map_layers_source_filters" ALTER COLUMN "operator" SET DEFAULT '=='::"public"."enum_map_layers_source_filters_operator";
  ALTER TABLE "map_layers_source_filters" ALTER COLUMN "operator" SET DATA TYPE "public"."enum_map_layers_source_filters_operator" USING "operator"::"public"."enum_map_layers_source_filters_operator";
  ALTER TABLE "map_layers_alert_rules" ALTER COLUMN "operator" SET DATA TYPE text;
  DROP TYPE "public"."enum_map_layers_alert_rules_operator";
  CREATE TYPE "public"."enum_map_layers_alert_rules_operator" AS ENUM('>', '>=', '<', '<=', '==', '!=', 'between', 'outside', 'contains', 'missing', 'stale');
  ALTER TABLE "map_layers_alert_rules" ALTER COLUMN "operator" SET DATA TYPE "public"."enum_map_layers_alert_rules_operator" USING "operator"::"public"."enum_map_layers_alert_rules_operator";
  DROP INDEX "users_first_admin_claim_idx";
  ALTER TABLE "users" DROP COLUMN "first_admin_claim";`)
}
