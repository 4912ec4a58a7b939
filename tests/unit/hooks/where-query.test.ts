import type { FlattenedField } from 'payload'
import { describe, expect, it } from 'vitest'

import type { QueryableCollection, QuerySchema } from '@/hooks/queryTargets'
import { containsNul, whereProblem } from '@/hooks/whereQuery'

// A small schema with every kind of field the validator knows, as Payload flattens them.
const categories: QueryableCollection = { idType: 'number', fields: [{ name: 'title', type: 'text' }] as FlattenedField[] }
const posts: QueryableCollection = {
  idType: 'number',
  fields: [
    { name: 'title', type: 'text' },
    { name: 'views', type: 'number' },
    { name: 'publishedAt', type: 'date' },
    { name: 'featured', type: 'checkbox' },
    { name: 'status', type: 'select', options: ['draft', { label: 'Published', value: 'published' }] },
    { name: 'tags', type: 'text', hasMany: true },
    { name: 'categories', type: 'relationship', relationTo: 'categories', hasMany: true },
    { name: 'author', type: 'relationship', relationTo: 'categories' },
    { name: 'doc', type: 'relationship', relationTo: ['categories', 'posts'] },
    { name: 'meta', type: 'group', flattenedFields: [{ name: 'image', type: 'upload', relationTo: 'categories' }] },
    {
      name: 'layout',
      type: 'blocks',
      blocks: [
        { slug: 'quote', flattenedFields: [{ name: 'text', type: 'text' }, { name: 'link', type: 'relationship', relationTo: ['categories', 'posts'] }] },
        { slug: 'stats', flattenedFields: [{ name: 'text', type: 'number' }] },
      ],
    },
    { name: 'rows', type: 'array', flattenedFields: [{ name: 'id', type: 'text' }, { name: 'label', type: 'text' }] },
    { name: 'data', type: 'json' },
    { name: 'location', type: 'point' },
  ] as FlattenedField[],
}
const schema: QuerySchema = { collection: (slug) => ({ categories, posts })[slug], block: () => undefined }
const problem = (where: unknown) => whereProblem(where, posts, schema, new Set(['all']))

describe('whereProblem lets legitimate queries through', () => {
  it.each([
    { title: { like: 'city news' } },
    { title: { equals: null } },
    { or: [{ and: [{ title: { contains: 'x' } }, { publishedAt: { greater_than: '2025-01-01T00:00:00.000Z' } }] }] },
    { OR: [{ title: { exists: 'true' } }], AND: [{ views: { less_than_equal: '10' } }] },
    { and: { 0: { title: { equals: 'a' } }, 25: { views: { equals: 3 } } } },
    { id: { in: ['1', '2'] } },
    { id: { in: '1,2' } },
    { id: { in: [] } },
    { id: { like: 'abc' } },
    { _id: { equals: 7 } },
    { views: { in: '1,2.5,-3' } },
    { publishedAt: { less_than: 1735689600000 } },
    { publishedAt: { equals: 'null' } },
    { featured: { equals: 'false' } },
    { featured: { in: [true, 'false'] } },
    { status: { in: 'draft,published' } },
    { status: { in: ['published', null] } },
    { tags: { contains: ['a', 'b'] } },
    { categories: { in: [1, '2'] } },
    { categories: { equals: [1, 2] } },
    { categories: { equals: 'null' } },
    { categories: { contains: '3' } },
    { categories: { contains: { title: { like: 'x' } } } },
    { 'categories.title': { like: 'x' } },
    { categories__title: { like: 'x' } },
    { 'author.id': { equals: '4' } },
    { 'meta.image': { exists: false } },
    { doc: { equals: { relationTo: 'posts', value: '5' } } },
    { 'doc.value': { in: ['5'] } },
    { 'doc.value': { exists: 'false' } },
    { 'doc.relationTo': { equals: 'posts' } },
    { 'layout.blockType': { equals: 'quote' } },
    { 'layout.text': { equals: '12' } },
    { 'layout.link': { equals: { relationTo: 'categories', value: 1 } } },
    { 'rows.id': { equals: '65f0c0ffee' } },
    { 'rows.label': { not_like: 'x' } },
    { data: { exists: true } },
    { 'data.colour': { like: 'red' } },
    { location: { near: '-3.81,43.46,1000' } },
    { location: { within: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] } } },
    { nosuchfield: { bogus: { a: 1 } } },
  ])('%j', (where) => {
    expect(problem(where)).toBeUndefined()
  })
})

describe('whereProblem refuses what the database would fail on', () => {
  it.each([
    ['abc', /^where: a query is/],
    [['abc'], /^where: a query is/],
    [{ title: 'abc' }, /^where\.title: conditions are/],
    [{ or: 'abc' }, /^where\.or: a list of queries/],
    [{ or: ['abc'] }, /^where\.or: a query is/],
    [{ title: { bogus: 'x' } }, /^where\.title\.bogus: "bogus" does not apply to a text field/],
    [{ title: { equals: { a: 1 } } }, /^where\.title\.equals: .* is not a text, number or boolean/],
    [{ title: { like: ['a'] } }, /^where\.title\.like: \["a"\] is not a text/],
    [{ title: { near: '1,2' } }, /"near" does not apply to a text field/],
    [{ views: { within: { type: 'Point', coordinates: [1, 2] } } }, /"within" does not apply to a number field/],
    [{ featured: { intersects: {} } }, /"intersects" does not apply to a checkbox field/],
    [{ title: { all: ['a'] } }, /"all" is not supported by this database/],
    [{ id: { in: [{ a: 1 }] } }, /^where\.id\.in: \{"a":1\} is not an id/],
    [{ id: { in: [['1']] } }, /is not an id/],
    [{ id: { in: '' } }, /"" is not an id/],
    [{ id: { in: '1,,2' } }, /"" is not an id/],
    [{ id: { equals: '1.5' } }, /is not an id/],
    [{ id: { equals: '2147483648' } }, /is not an id/],
    [{ id: { in: Array.from({ length: 1001 }, (_, index) => index) } }, /at most 1000 values/],
    [{ views: { greater_than: 'abc' } }, /"abc" is not a number/],
    [{ views: { equals: '' } }, /"" is not a number/],
    [{ views: { contains: '5' } }, /"contains" does not apply to a number field/],
    [{ publishedAt: { greater_than: 'notadate' } }, /"notadate" is not a date/],
    [{ publishedAt: { less_than_equal: { a: '1' } } }, /is not a date/],
    [{ publishedAt: { equals: '0000-01-01' } }, /is not a date/],
    [{ publishedAt: { like: '2025' } }, /"like" does not apply to a date field/],
    [{ featured: { equals: 'maybe' } }, /is not true or false/],
    [{ title: { exists: 'maybe' } }, /is not true or false/],
    [{ status: { equals: 'archived' } }, /"archived" is not one of draft, published/],
    [{ status: { like: 'draft' } }, /"like" does not apply to a field with set values/],
    [{ categories: { in: 'abc' } }, /"abc" is not an id/],
    [{ categories: { equals: { a: 1 } } }, /is not an id/],
    [{ categories: { like: '1' } }, /"like" does not apply to a relationship field/],
    [{ categories: { contains: { title: { equals: { x: 1 } } } } }, /^where\.categories\.contains: categories\.title\.equals: /],
    [{ author: { contains: '1' } }, /"contains" does not apply to a relationship field/],
    [{ doc: { equals: '5' } }, /is not \{relationTo, value\} with relationTo one of categories, posts/],
    [{ doc: { equals: { relationTo: 'users', value: 1 } } }, /relationTo one of categories, posts/],
    [{ doc: { exists: true } }, /"exists" does not apply to a relationship to several collections/],
    [{ 'doc.value': { in: '5' } }, /"5" is not a list/],
    [{ 'doc.value': { equals: null } }, /null cannot be compared here/],
    [{ 'doc.value': { exists: true } }, /write true as the text "true"/],
    [{ categories: { in: [1, null] } }, /null is not an id/],
    [{ id: { like: '1.5' } }, /"1.5" is not an id/],
    [{ id: { like: 5 } }, /5 is not a text/],
    [{ 'layout.blockType': { equals: null } }, /null is not a block type/],
    [{ 'doc.relationTo': { equals: 'users' } }, /is not one of categories, posts/],
    [{ 'layout.blockType': { equals: 'banner' } }, /"banner" is not one of quote, stats/],
    [{ 'layout.blockType': { exists: true } }, /"exists" does not apply to a block type/],
    [{ 'layout.text': { equals: 'abc' } }, /"abc" is not a number/],
    [{ 'layout.link.value': { equals: '1' } }, /not supported inside a list/],
    [{ data: { like: 'x' } }, /"like" does not apply to a JSON or rich text field/],
    [{ 'data.colour': { in: ['red'] } }, /"in" does not apply/],
    [{ 'data.colour': { like: '+red' } }, /"\+" cannot be searched for inside JSON/],
    [{ location: { near: 'here' } }, /is not a longitude,latitude/],
    [{ location: { within: { type: 'Circle', coordinates: [1, 2] } } }, /is not a GeoJSON geometry/],
    [{ location: { intersects: { type: 'Point', coordinates: ['1', '2'] } } }, /is not a GeoJSON geometry/],
    [{ title: { equals: 'a\u0000b' } }, /NUL characters/],
  ])('%j', (where, message) => {
    expect(problem(where)).toMatch(message)
  })

  it('allows `all` where the database has it (MongoDB)', () => {
    expect(whereProblem({ tags: { all: ['a', 'b'] } }, posts, schema)).toBeUndefined()
  })

  it('judges text ids as text', () => {
    const textIds = { ...posts, idType: 'text' as const }
    expect(whereProblem({ id: { equals: '65f0c0ffee' } }, textIds, schema)).toBeUndefined()
    expect(whereProblem({ id: { equals: { $gt: '' } } }, textIds, schema)).toMatch(/is not an id/)
  })
})

describe('containsNul', () => {
  it('finds NUL in nested texts and keys, nowhere else', () => {
    expect(containsNul({ a: [{ b: 'x\u0000' }] })).toBe(true)
    expect(containsNul({ 'k\u0000': 1 })).toBe(true)
    expect(containsNul({ a: ['x\u0001', 3, null, true] })).toBe(false)
  })
})
