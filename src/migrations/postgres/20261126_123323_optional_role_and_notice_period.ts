import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "users" ALTER COLUMN "role" DROP NOT NULL;
  ALTER TABLE "site_settings" ALTER COLUMN "alert_notices_period_minutes" DROP NOT NULL;`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "users" ALTER COLUMN "role" SET NOT NULL;
  ALTER TABLE "site_settings" ALTER COLUMN "alert_notices_period_minutes" SET NOT NULL;`)
}
