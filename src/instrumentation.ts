/** Runs once when the Next.js server starts: a bad setting stops it before it serves anything. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { InvalidEnvironmentError, parseEnv } = await import('./env')
  try {
    parseEnv()
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error
    console.error(`✖ City Dashboard cannot start. ${error.message}`)
    process.exit(1)
  }
  const { installPeerAddressHeader } = await import('./utilities/peerAddress')
  await installPeerAddressHeader()
}
