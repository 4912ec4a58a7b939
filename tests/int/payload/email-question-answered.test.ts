import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { Question } from '@/payload-types'

import { authHeaders, ROLES } from '../../helpers/accounts'
import { mailsTo } from '../../helpers/smtp'
import { mailFromQueue, runMailQueue } from '../helpers/mailQueue'
import { type PayloadApi, startPayloadApi } from '../helpers/payload'

// A citizen who leaves an address with a question is mailed once when staff publish the answer
// (a real SMTP server started here); the address is readable by admins only and erased then.

let app: PayloadApi

let clients = 0
const newClient = () => `203.0.113.${100 + ++clients}`

const call = (method: string, path: string, body?: unknown, token?: string) =>
  fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': newClient(), ...authHeaders(token ?? null) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

const addressOf = (tag: string) => `asker-${tag}-${process.pid}@example.org`
const storedAddress = async (id: number | string) =>
  (await app.payload.db.findOne<Question>({ collection: 'questions', where: { id: { equals: id } } }))?.notifyEmail ?? null

async function ask(question: string, email?: string) {
  const response = await call('POST', '/api/questions/ask', { question, ...(email === undefined ? {} : { email }) })
  expect(response.status, await response.clone().text()).toBe(201)
  return ((await response.json()) as { question: { id: number | string } }).question.id
}

beforeAll(async () => {
  app = await startPayloadApi({
    mailFrom: 'City Dashboard <noreply@city.example>',
    env: { PUBLIC_SERVER_URL: 'https://dashboard.city.example', TRUST_PROXY: '1' },
    // The integration files share one database: the site's name the mails are signed with is set here.
    site: { title: 'City Dashboard' },
    routes: ['/api/questions/ask'],
    roles: ROLES,
  })
})

afterAll(() => app?.close())

describe('telling a citizen that the answer is out', () => {
  it('keeps the address from everyone but admins', async () => {
    const id = await ask('Where can I see the noise levels near the harbour?', addressOf('private'))
    for (const role of ['editor', 'viewer'] as const) {
      const doc = (await (await call('GET', `/api/questions/${id}`, undefined, app.tokens[role])).json()) as Question
      expect(doc.question, role).toBeDefined()
      expect(doc.notifyEmail, role).toBeUndefined()
    }
    const asAdmin = (await (await call('GET', `/api/questions/${id}`, undefined, app.tokens.admin)).json()) as Question
    expect(asAdmin.notifyEmail).toBe(addressOf('private'))
    const graphql = await call('POST', '/api/graphql', { query: `{ Question(id: ${JSON.stringify(id)}) { notifyEmail } }` }, app.tokens.editor)
    expect(graphql.status).toBe(200)
    expect(await graphql.json()).toEqual({ data: { Question: { notifyEmail: null } } })
  })

  it('mails once when an editor publishes the answer, then erases the address', async () => {
    const address = addressOf('answered')
    const id = await ask('Is the air quality good enough for running today?', address)
    expect(await storedAddress(id)).toBe(address)

    const published = await call('PATCH', `/api/questions/${id}`, { status: 'answered', answer: 'Yes: every station reads "good" this morning.' }, app.tokens.editor)
    expect(published.status, await published.clone().text()).toBe(200)
    expect(await storedAddress(id)).toBeNull()

    const mail = await mailFromQueue(app, (candidate) => candidate.envelopeTo.includes(address))
    expect(mail.subject).toBe('Your question to City Dashboard has been answered')
    expect(mail.text).toContain('You asked: Is the air quality good enough for running today?')
    expect(mail.text).toContain('The answer: Yes: every station reads "good" this morning.')
    expect(mail.text).toContain('https://dashboard.city.example/questions')
    expect(mail.html).toContain('every station reads &quot;good&quot; this morning.')

    // Edited and published again: nobody is mailed a second time.
    await call('PATCH', `/api/questions/${id}`, { status: 'received' }, app.tokens.editor)
    await call('PATCH', `/api/questions/${id}`, { status: 'answered', answer: 'Yes, still.' }, app.tokens.editor)
    await runMailQueue(app.payload)
    expect(mailsTo(app.smtp, address)).toHaveLength(1)
    const { docs: jobs } = await app.payload.find({ collection: 'payload-jobs', where: { taskSlug: { equals: 'sendMail' } } })
    expect(JSON.stringify(jobs)).not.toContain(address)
  })

  it('erases the address of a declined question without mailing it', async () => {
    const address = addressOf('declined')
    const id = await ask('Can you tell me my neighbour’s electricity use?', address)
    expect((await call('PATCH', `/api/questions/${id}`, { status: 'declined' }, app.tokens.editor)).status).toBe(200)
    expect(await storedAddress(id)).toBeNull()
    await runMailQueue(app.payload)
    expect(mailsTo(app.smtp, address)).toEqual([])
  })

  it('refuses a malformed address with a 400 naming the field, and takes an empty one as none', async () => {
    for (const email of ['not-an-address', 'a@example.org\r\nBcc: victim@example.org']) {
      const response = await call('POST', '/api/questions/ask', { question: 'What is the temperature at the port?', email })
      expect(response.status).toBe(400)
      expect(((await response.json()) as { error: string }).error).toMatch(/email/)
    }
    const id = await ask('What is the temperature at the port now?', '')
    expect(await storedAddress(id)).toBeNull()
  })
})
