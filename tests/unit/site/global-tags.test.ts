import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

// A global's save expires its cached reads in every locale, whichever locale the editor saved.

const revalidateTag = vi.fn()
const revalidatePath = vi.fn()
vi.mock('next/cache', () => ({ revalidateTag, revalidatePath }))

const { globalTag, revalidateGlobal } = await import('@/site/globals')

beforeEach(() => {
  process.env.NEXT_RUNTIME = 'nodejs'
})

afterEach(() => {
  delete process.env.NEXT_RUNTIME
  vi.clearAllMocks()
})

describe('global cache tags', () => {
  it('names a global, and one locale of it', () => {
    expect(globalTag('header')).toBe('global_header')
    expect(globalTag('header', 'pt')).toBe('global_header_pt')
  })

  it('a save in one locale expires the global and each locale’s read, and the citizen pages', () => {
    const doc = { id: 1 }
    const result = revalidateGlobal({ doc, global: { slug: 'site-settings' }, req: { locale: 'pt' } } as unknown as Parameters<typeof revalidateGlobal>[0])
    expect(result).toBe(doc)
    const tags = revalidateTag.mock.calls.map(([tag]) => tag)
    expect(tags).toEqual(expect.arrayContaining(['global_site-settings', 'global_site-settings_es', 'global_site-settings_pt', 'global_site-settings_en']))
    expect(revalidatePath).toHaveBeenCalledWith('/', 'layout')
  })
})
