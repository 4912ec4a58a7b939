import type { BeforeSync } from '@payloadcms/plugin-search/types'
import type { Field, PayloadRequest } from 'payload'

import { MAX_KEYWORDS, parseKeywords } from '@/ai/server'

import type { TargetCollection } from '../../shared/draftTargets'

/**
 * Search keyword expansion: the keywords of an applied search-keywords draft live on the
 * document's record in the search plugin's `search` collection (matched by `/api/search`
 * queries on `keywords`), never in the document itself, so they are not shown as content.
 * Apply writes them to the existing record; every later sync copies them again.
 */
export const searchKeywordsField: Field = {
  name: 'keywords',
  type: 'text',
  admin: { readOnly: true, description: 'From the latest applied AI search-keywords draft for this document.' },
}

const joined = (keywords: string[]) => keywords.join(', ')

/** The keywords of the latest applied search-keywords draft for a document, if any. */
async function appliedKeywords(req: PayloadRequest, collection: string, id: string | number): Promise<string | undefined> {
  const { docs } = await req.payload.find({
    collection: 'ai-drafts',
    where: {
      task: { equals: 'search-keywords' },
      status: { equals: 'applied' },
      'target.collection': { equals: collection },
      'target.docId': { equals: String(id) },
    },
    sort: '-updatedAt',
    limit: 1,
    depth: 0,
    req,
  })
  return docs[0] ? joined(parseKeywords(docs[0].draft, MAX_KEYWORDS)) : undefined
}

export const copyAppliedKeywords: BeforeSync = async ({ collectionSlug, originalDoc, req, searchDoc }) => {
  const keywords = await appliedKeywords(req, collectionSlug, originalDoc.id)
  return keywords ? { ...searchDoc, keywords } : searchDoc
}

/** Writes keywords to the document's search record; unpublished documents have none yet (sync adds them later). */
export async function updateSearchKeywords(req: PayloadRequest, collection: TargetCollection, id: string | number, keywords: string[]) {
  const { docs } = await req.payload.find({
    collection: 'search',
    where: { 'doc.relationTo': { equals: collection }, 'doc.value': { equals: id } },
    depth: 0,
    req,
  })
  for (const record of docs) {
    await req.payload.update({ collection: 'search', id: record.id, data: { keywords: joined(keywords) }, req })
  }
}
