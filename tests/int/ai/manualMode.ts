import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { Role } from '../../helpers/accounts'
import { type AiApp, callJson, startAiApp } from './app'

/**
 * With AI switched off (ENABLE_AI unset, or anything but "true"): the helper answers in manual
 * mode, creates no draft and sends nothing to the gateway, while citizens' questions still work.
 */
export function describeManualMode(enableAi: string | undefined) {
  describe(`AI helper with ENABLE_AI ${enableAi === undefined ? 'unset' : `"${enableAi}"`}`, () => {
    let app: AiApp

    const generate = (role: Role) =>
      callJson(app.baseUrl, 'POST', '/api/ai/generate', { task: 'documentation', input: { topic: 'Map layers' } }, { token: app.tokens[role] })
    const draftCount = async () => (await app.payload.count({ collection: 'ai-drafts' })).totalDocs

    beforeAll(async () => {
      app = await startAiApp({ enableAi, roles: ['admin', 'editor'] })
    })

    afterAll(() => app?.close())

    it('answers 200 {mode: "manual", content: "", message} without a draft or a gateway call', async () => {
      const before = await draftCount()
      const response = await generate('editor')
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ mode: 'manual', content: '', message: expect.stringMatching(/turned off.*enter the content manually/) })
      expect(await draftCount()).toBe(before)
      expect(app.gateway.requests).toHaveLength(0)
    })

    it('still takes citizens’ questions, without an answer draft', async () => {
      const before = await draftCount()
      const response = await callJson(app.baseUrl, 'POST', '/api/questions/ask', { question: 'Is the swimming pool open?' }, { ip: '198.51.100.20' })
      expect(response.status).toBe(201)
      expect(await draftCount()).toBe(before)
      expect(app.gateway.requests).toHaveLength(0)
    })

    it('limits generation per signed-in user with 429 {error}', async () => {
      let refused: Response | undefined
      for (let i = 0; i < 30 && !refused; i++) {
        const response = await generate('admin')
        if (response.status === 429) refused = response
      }
      expect(refused?.status).toBe(429)
      expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(((await refused!.json()) as { error: string }).error).toMatch(/too many/i)
      // Another user has a budget of their own.
      expect((await generate('editor')).status).toBe(200)
    })
  })
}
