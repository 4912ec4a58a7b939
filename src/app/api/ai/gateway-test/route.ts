import { userIsAdmin } from '@/access'
import { checkGateway } from '@/ai/server'
import { env } from '@/env'
import { rateLimitHeaders } from '@/rate-limit'
import { gatewayClient } from '@/ai/entry/services'
import { rateLimiter } from '@/server/services'
import { gatewayKeyWarning, modelChainFor } from '@/ai/entry/settings'
import { HttpError, withErrorHandling } from '@/server/errors'
import { payloadClient } from '@/site/payload'
import { readGlobal } from '@/site/globals'

export const dynamic = 'force-dynamic'

const userLimiter = () => rateLimiter('ai-gateway-test', { points: 10, durationSeconds: 60 })

/**
 * POST /api/ai/gateway-test (admins: the button in Site settings → AI) → 200 {enabled, warning?,
 * key: {valid, problem?, …}, models: [{id, availability}]}. Asks the gateway's /key and /models;
 * the key itself is never part of the answer. POST, so a link or an image cannot spend the calls.
 */
export const POST = withErrorHandling(async (request: Request) => {
  const payload = await payloadClient()
  const { user } = await payload.auth({ headers: request.headers })
  if (!user) throw new HttpError(401, 'Sign in to test the AI gateway')
  if (!userIsAdmin(user)) throw new HttpError(403, 'Only admins can test the AI gateway')
  const limit = await userLimiter().consume(String(user.id))
  if (!limit.allowed) throw new HttpError(429, 'Too many gateway tests; try again later', rateLimitHeaders(limit))

  const siteSettings = await readGlobal(payload, 'site-settings')
  const check = await checkGateway(gatewayClient(), modelChainFor(siteSettings), request.signal)
  return Response.json(
    { enabled: env().ENABLE_AI, warning: gatewayKeyWarning(), ...check },
    { headers: { 'Cache-Control': 'no-store', ...rateLimitHeaders(limit) } },
  )
})
