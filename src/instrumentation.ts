/**
 * Runs once when the Next.js server starts: a bad setting stops it before it serves anything;
 * then the server hooks (peer address, request id, CSP/HSTS) are installed.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { InvalidEnvironmentError, parseEnv } = await import('./env')
  let settings: ReturnType<typeof parseEnv>
  try {
    settings = parseEnv()
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error
    console.error(`✖ City Dashboard cannot start. ${error.message}`)
    process.exit(1)
  }
  const { installServerHooks } = await import('./utilities/serverHooks')
  await installServerHooks({ https: settings.PUBLIC_SERVER_URL.startsWith('https:'), trustedProxyHops: settings.TRUST_PROXY })
}
