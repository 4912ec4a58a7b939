/**
 * Runs once when the Next.js server starts. The start-up work needs Node (it may stop the
 * process and hooks Node's HTTP server), so it lives in a module that only the Node.js runtime
 * imports: Next compiles this file for the Edge runtime too, which has no `process.exit`.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startNodeServer } = await import('./instrumentation-node')
    await startNodeServer()
  }
}
