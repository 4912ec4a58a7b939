import { describe, expect, it } from 'vitest'

import { parseTranslation, TaskOutputError, translateInputSchema } from '@/ai/server'
import { aiTasks } from '@/ai/server/tasks'

const input = translateInputSchema.parse({
  collection: 'pages',
  id: 7,
  sourceLocale: 'es',
  targetLocale: 'pt',
  texts: { title: 'Calidad del aire', 'layout.abc.title': 'Mapa' },
})

describe('translate task', () => {
  it('asks for European Portuguese with the texts as data, keys kept', () => {
    const prompt = aiTasks.translate.buildPrompt(input)
    expect(prompt).toContain('from Spanish (Spain) into European Portuguese')
    expect(prompt).toContain('"layout.abc.title": "Mapa"')
  })

  it('takes a JSON object with every key, in or out of a code fence; extra keys are dropped', () => {
    expect(parseTranslation('```json\n{"title": "Qualidade do ar", "layout.abc.title": "Mapa", "other": "x"}\n```', input)).toEqual({
      title: 'Qualidade do ar',
      'layout.abc.title': 'Mapa',
    })
  })

  it('refuses an answer that leaves a text out or is not an object', () => {
    expect(() => parseTranslation('{"title": "Qualidade do ar"}', input)).toThrow(TaskOutputError)
    expect(() => parseTranslation('["Qualidade do ar"]', input)).toThrow(TaskOutputError)
  })

  it('refuses the same locale on both sides, and nothing to translate', () => {
    expect(translateInputSchema.safeParse({ ...input, targetLocale: 'es' }).success).toBe(false)
    expect(translateInputSchema.safeParse({ ...input, texts: {} }).success).toBe(false)
    expect(translateInputSchema.safeParse({ ...input, targetLocale: 'fr' }).success).toBe(false)
  })
})
