import { type CollectionAfterChangeHook, type CollectionAfterDeleteHook, type CollectionBeforeChangeHook, type FieldHook, type PayloadRequest, ValidationError } from 'payload'

import { userIsStaff } from '@/access'
import { HEADER_NAV_MAX } from '@/globals/Header/config'
import { adminMessage } from '@/i18n/admin'
import type { Header, Page } from '@/payload-types'
import { readGlobal } from '@/site/globals'

// A page's "Show in the header navigation" box is a view of the Header global's nav items, the one
// home of the navigation: ticking it appends a link to the page there, unticking removes the page's
// links. Nothing about navigation is stored on the page.

type NavItem = NonNullable<Header['navItems']>[number]

const idOf = (value: unknown) => (typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : value)

const linksTo = (item: NavItem, pageId: number | string) =>
  item.link?.type !== 'custom' && item.link?.reference?.relationTo === 'pages' && String(idOf(item.link.reference.value)) === String(pageId)

// One read of the navigation per request, however many pages it lists.
const NAV_CONTEXT_KEY = 'headerNavItems'
function navItems(req: PayloadRequest): Promise<NavItem[]> {
  const context = req.context as Record<string, Promise<NavItem[]> | undefined>
  context[NAV_CONTEXT_KEY] ??= readGlobal(req.payload, 'header', { req }).then((header) => header.navItems ?? [])
  return context[NAV_CONTEXT_KEY]
}

/** Shows the box ticked when the navigation links to the page (for staff: citizens never see it). */
export const readInNavigation: FieldHook<Page, boolean | null | undefined> = async ({ originalDoc, req }) => {
  if (!originalDoc?.id || !userIsStaff(req.user)) return undefined
  return (await navItems(req)).some((item) => linksTo(item, originalDoc.id))
}

async function writeNavItems(req: PayloadRequest, items: NavItem[]) {
  await req.payload.updateGlobal({ slug: 'header', data: { navItems: items }, depth: 0, req, overrideAccess: false, user: req.user })
  delete (req.context as Record<string, unknown>)[NAV_CONTEXT_KEY]
}

/** A full navigation refuses the box before the page is saved, not after. */
export const checkNavigationRoom: CollectionBeforeChangeHook<Page> = async ({ data, originalDoc, req }) => {
  if ((data as { inNavigation?: unknown }).inNavigation !== true) return data
  const items = await navItems(req)
  if (originalDoc?.id !== undefined && items.some((item) => linksTo(item, originalDoc.id))) return data
  if (items.length >= HEADER_NAV_MAX) {
    throw new ValidationError(
      { collection: 'pages', errors: [{ path: 'inNavigation', message: adminMessage(req, 'navigationFull', { max: String(HEADER_NAV_MAX) }) }] },
      req.t,
    )
  }
  return data
}

/** Adds or removes the page's link when the box was sent changed; the link is labelled with the page's title. */
export const syncNavigation: CollectionAfterChangeHook<Page> = async ({ data, doc, req }) => {
  const wanted = (data as { inNavigation?: unknown }).inNavigation
  if (typeof wanted !== 'boolean') return doc
  const items = await navItems(req)
  const present = items.some((item) => linksTo(item, doc.id))
  if (wanted && !present) {
    await writeNavItems(req, [...items, { link: { type: 'reference', reference: { relationTo: 'pages', value: doc.id }, label: doc.title } }])
  } else if (!wanted && present) {
    await writeNavItems(req, items.filter((item) => !linksTo(item, doc.id)))
  }
  return doc
}

/** A deleted page leaves no link behind. */
export const dropFromNavigation: CollectionAfterDeleteHook<Page> = async ({ doc, req }) => {
  const items = await navItems(req)
  if (items.some((item) => linksTo(item, doc.id))) await writeNavItems(req, items.filter((item) => !linksTo(item, doc.id)))
  return doc
}
