import { shareRevalidatedTags } from './cache'
import { type Env, exposureWarning, InvalidEnvironmentError, parseEnv } from './env'
import { revalidatedTags } from './server/services'
import { installEdge } from './server/edge'
import { warmUp } from './server/warmUp'

/** A bad setting stops the server before it serves anything. */
function checkEnvironment(): Env {
  try {
    return parseEnv()
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error
    console.error(`✖ City Dashboard cannot start. ${error.message}`)
    process.exit(1)
  }
}

/**
 * Checks the settings, then installs the server hooks (peer address, request id, CSP/HSTS),
 * with REDIS_URL shares Next's cache revalidations with the other replicas, and warms what
 * citizens' first visits need (`/api/health` says "starting" until that is done).
 */
export async function startNodeServer() {
  const settings = checkEnvironment()
  const warning = exposureWarning(settings)
  if (warning) console.warn(`⚠ ${warning}`)
  await installEdge({
    https: settings.PUBLIC_SERVER_URL.startsWith('https:'),
    trustedProxyHops: settings.TRUST_PROXY,
    requestTimeoutSeconds: settings.REQUEST_TIMEOUT_SECONDS,
  })
  const tags = revalidatedTags()
  if (tags) shareRevalidatedTags(tags)
  // `next dev` compiles on demand: warming it would compile every page at start.
  if (process.env.NODE_ENV === 'production') void warmUp(`http://127.0.0.1:${process.env.PORT || 3000}`)
}
