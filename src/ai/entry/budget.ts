import type { Payload } from 'payload'

import { rateLimiter } from '@/server/services'
import { readGlobal } from '@/site/globals'

/** Generations per day for the whole site when Site settings → AI says nothing else. */
export const DEFAULT_DAILY_AI_BUDGET = 200

// Counts without a ceiling of its own: the budget is read from Site settings at each call, so an
// admin who raises or lowers it mid-day keeps the day's count.
const dailyCount = () => rateLimiter('ai-daily', { points: 10_000_000, durationSeconds: 2 * 24 * 60 * 60 })

const utcDay = (now: Date) => now.toISOString().slice(0, 10)

const secondsToMidnightUtc = (now: Date) => {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000))
}

export type AiBudgetDecision = { allowed: true } | { allowed: false; budget: number; message: string; retryAfterSeconds: number }

/**
 * Spends one generation of the site's daily AI budget (Site settings → AI → generations per day),
 * shared by every account, the questions job and every replica (Redis with REDIS_URL), so several
 * staff accounts cannot run up the gateway bill. A refused call spends nothing.
 */
export async function spendDailyAiBudget(payload: Payload, now = new Date()): Promise<AiBudgetDecision> {
  const siteSettings = await readGlobal(payload, 'site-settings')
  const budget = siteSettings.ai?.dailyBudget ?? DEFAULT_DAILY_AI_BUDGET
  const counter = dailyCount()
  const day = utcDay(now)
  const spent = await counter.consume(day)
  const used = spent.limit - spent.remaining
  if (spent.allowed && used <= budget) return { allowed: true }
  await counter.refund(day)
  return {
    allowed: false,
    budget,
    retryAfterSeconds: secondsToMidnightUtc(now),
    message:
      budget === 0
        ? 'AI generation is switched off in Site settings → AI (0 generations per day); write the text by hand.'
        : `The site's AI budget for today (${budget} generations) is spent; write the text by hand, or try again after midnight UTC. Admins set the budget in Site settings → AI.`,
  }
}
