/** The steps of `npm test` (scripts/test.ts), in the lanes that run side by side. */

export type Step = {
  name: string
  /** What it runs, as a user would type it. */
  command: string
  /** Steps that must have passed first; a step whose need failed is skipped. */
  needs?: string[]
  /** The vitest project it runs, whose files report its cases. */
  project?: string
}

const vitest = (project: string) => ({ command: `npx vitest run --project ${project}`, project })

/**
 * Lane 2 starts the build at once; each lane's steps follow each other, and the lanes come out
 * about as long (the time table of a run shows it). The end-to-end and security projects share
 * the build, not servers.
 */
export const LANES: Step[][] = [
  [
    { name: 'lint', command: 'npm run lint' },
    { name: 'unit', ...vitest('unit') },
    { name: 'int (SQLite)', ...vitest('int') },
    // After the build, so the route types Next writes under .next/types are checked too.
    { name: 'typecheck', command: 'npm run typecheck', needs: ['build'] },
    { name: 'security', ...vitest('security'), needs: ['build'] },
    { name: 'replicas', ...vitest('replicas'), needs: ['build'] },
  ],
  [
    { name: 'build', command: 'BUILD_SKIPS_TYPECHECK=true npx tsx tests/helpers/productionBuild.ts' },
    ...(process.env.TEST_POSTGRES_URI ? [{ name: 'int (PostgreSQL)', ...vitest('int-postgres') }] : []),
    ...(process.env.TEST_MONGODB_URI ? [{ name: 'int (MongoDB)', ...vitest('int-mongodb') }] : []),
    { name: 'e2e', ...vitest('e2e'), needs: ['build'] },
    { name: 'commands', ...vitest('commands'), needs: ['build'] },
  ],
]
