/**
 * Runs once when the Next.js server starts. The start-up checks need Node (they may stop the
 * process), so they live in a module that only the Node.js runtime imports: Next compiles this
 * file for the Edge runtime too, which has no `process.exit`.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { checkEnvironment } = await import('./instrumentation-node')
    checkEnvironment()
  }
}
