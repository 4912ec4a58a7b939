import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

// Sign-in throttling moved out of Payload's per-account lockout (maxLoginAttempts: 0), so its
// columns go. The schema snapshot beside this file is the whole schema after the merge of the
// AI model-chain, security and basemap migrations, which were generated from the same parent.
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
  ALTER TABLE "users" DROP COLUMN "login_attempts";
  ALTER TABLE "users" DROP COLUMN "lock_until";`)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
  ALTER TABLE "users" ADD COLUMN "login_attempts" numeric DEFAULT 0;
  ALTER TABLE "users" ADD COLUMN "lock_until" timestamp(3) with time zone;`)
}
