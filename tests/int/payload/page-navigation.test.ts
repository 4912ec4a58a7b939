import type { Payload } from 'payload'
import { beforeAll, describe, expect, it } from 'vitest'

import type { Header, User } from '@/payload-types'

import { createUserLocally, testAccount } from '../../helpers/accounts'
import { startPayload } from '../helpers/payload'

// A page's "Show in the header navigation" box edits the Header global's nav items (their one
// home); on SQLite and PostgreSQL.

let payload: Payload
let editor: User
const tag = `nav${Date.now()}`

const navReferences = async () => {
  const header = (await payload.findGlobal({ slug: 'header', depth: 0 })) as Header
  return (header.navItems ?? []).map((item) => ({ label: item.link.label, page: item.link.reference?.value }))
}

const asEditor = { overrideAccess: false as const, get user() { return { ...editor, collection: 'users' as const } } }

beforeAll(async () => {
  payload = (await startPayload()).payload
  editor = await createUserLocally(payload, testAccount('editor', tag))
  await payload.updateGlobal({ slug: 'header', data: { navItems: [{ link: { type: 'custom', url: '/about', label: 'About' } }] } })
})

describe('a page goes into the header navigation from its own sidebar', () => {
  it('ticking adds a link labelled with the page title after the existing items; the page reads the box ticked', async () => {
    const page = await payload.create({ collection: 'pages', data: { title: 'Roadworks', slug: `${tag}-roadworks`, _status: 'published', layout: [], inNavigation: true }, ...asEditor })
    expect(await navReferences()).toEqual([
      { label: 'About', page: undefined },
      { label: 'Roadworks', page: page.id },
    ])
    const read = await payload.findByID({ collection: 'pages', id: page.id, ...asEditor })
    expect(read.inNavigation).toBe(true)
  })

  it('saving again with the box ticked adds no second link; unticking removes it and leaves the others', async () => {
    const page = await payload.create({ collection: 'pages', data: { title: 'Parks', slug: `${tag}-parks`, _status: 'published', layout: [], inNavigation: true }, ...asEditor })
    await payload.update({ collection: 'pages', id: page.id, data: { title: 'Parks and gardens', inNavigation: true }, ...asEditor })
    expect((await navReferences()).filter((item) => item.page === page.id)).toHaveLength(1)

    await payload.update({ collection: 'pages', id: page.id, data: { inNavigation: false }, ...asEditor })
    const after = await navReferences()
    expect(after.some((item) => item.page === page.id)).toBe(false)
    expect(after[0]).toEqual({ label: 'About', page: undefined })
    expect((await payload.findByID({ collection: 'pages', id: page.id, ...asEditor })).inNavigation).toBe(false)
  })

  it('a save that does not send the box leaves the navigation alone, and a deleted page leaves no link', async () => {
    const page = await payload.create({ collection: 'pages', data: { title: 'Libraries', slug: `${tag}-libraries`, _status: 'published', layout: [], inNavigation: true }, ...asEditor })
    await payload.update({ collection: 'pages', id: page.id, data: { title: 'City libraries' }, ...asEditor })
    expect((await navReferences()).some((item) => item.page === page.id)).toBe(true)
    await payload.delete({ collection: 'pages', id: page.id, ...asEditor })
    expect((await navReferences()).some((item) => item.page === page.id)).toBe(false)
  })

  it('a full navigation refuses the box with a message, and the page is not saved', async () => {
    const full = Array.from({ length: 8 }, (_, index) => ({ link: { type: 'custom' as const, url: `/full-${index}`, label: `Item ${index}` } }))
    await payload.updateGlobal({ slug: 'header', data: { navItems: full } })
    const slug = `${tag}-overflow`
    await expect(
      payload.create({ collection: 'pages', data: { title: 'Overflow', slug, _status: 'published', layout: [], inNavigation: true }, ...asEditor }),
    ).rejects.toMatchObject({ data: { errors: [{ path: 'inNavigation', message: expect.stringContaining('full (8 links)') }] } })
    expect((await payload.find({ collection: 'pages', where: { slug: { equals: slug } } })).totalDocs).toBe(0)
  })
})
