import { readFileSync } from 'node:fs'
import path from 'node:path'

import { createClient } from '@libsql/client'
import pg from 'pg'
import { beforeAll, describe, expect, it } from 'vitest'

import { STANDALONE_DIR } from '../../scripts/build'
import type { Role } from '../helpers/accounts'

import type { SecurityServer } from './global-setup'
import { call, servers } from './http'

/**
 * The admin's server functions are one Next server action (src/app/(payload)/layout.tsx), reachable
 * by anyone who reads its id from the admin's JavaScript: these cases call it as an attacker would,
 * with the id from the build's manifest.
 */
function serverFunctionActionId(): string {
  const manifest = JSON.parse(readFileSync(path.join(STANDALONE_DIR, '.next', 'server', 'server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { filename?: string; exportedName?: string; workers: Record<string, unknown> }>
  }
  const ids = Object.entries(manifest.node)
    .filter(([, action]) => action.filename === 'app/(payload)/layout.tsx')
    .map(([id]) => id)
  if (ids.length !== 1) throw new Error(`expected the admin's one server function, found ${ids.length} actions`)
  return ids[0] as string
}

type Caller = 'anonymous' | Role

/** Calls the admin's server function `name` with `args` as `caller` would from the admin's page. */
async function serverFunction(server: SecurityServer, caller: Caller, name: string, args: Record<string, unknown>) {
  const response = await fetch(`${server.baseUrl}/admin`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'next-action': serverFunctionActionId(),
      accept: 'text/x-component',
      'content-type': 'text/plain;charset=UTF-8',
      origin: server.baseUrl,
      'sec-fetch-site': 'same-origin',
      ...(caller === 'anonymous' ? {} : { cookie: `payload-token=${server.tokens[caller]}` }),
    },
    body: JSON.stringify([{ name, args }]),
  })
  return { status: response.status, text: await response.text() }
}

type Job = { id: number | string; input: { doc?: { relationTo: string; value: number | string }; type: string } }

/** The jobs table as the database holds it (Payload's jobs collection has no REST reads). */
async function schedulePublishJobs(server: SecurityServer): Promise<{ id: number | string; input: string }[]> {
  const query = "SELECT id, input FROM payload_jobs WHERE task_slug = 'schedulePublish'"
  if (server.databaseUri.startsWith('file:')) {
    const client = createClient({ url: server.databaseUri })
    try {
      return (await client.execute(query)).rows.map((row) => ({ id: row.id as number, input: String(row.input) }))
    } finally {
      client.close()
    }
  }
  const client = new pg.Client({ connectionString: server.databaseUri })
  await client.connect()
  try {
    return (await client.query<{ id: number; input: unknown }>(query)).rows.map((row) => ({ id: row.id, input: JSON.stringify(row.input) }))
  } finally {
    await client.end()
  }
}

async function scheduledJobsOf(server: SecurityServer, pageId: number | string): Promise<Job[]> {
  const jobs = (await schedulePublishJobs(server)).map(({ id, input }) => ({ id, input: JSON.parse(input) as Job['input'] }))
  return jobs.filter((job) => String(job.input.doc?.value) === String(pageId))
}

// As React encodes a Date argument of a server action (the admin's date picker sends one).
const inAWeek = () => `$D${new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString()}`

describe.each(servers())('V4 Access control: scheduled publication needs the right to publish ($name)', (server) => {
  let pageId: number | string
  let otherPageId: number | string
  let editorsJob: Job

  const draftPage = async (title: string) => {
    const created = await call(server, 'admin', 'POST', '/api/pages?draft=true', { title, slug: `${title.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}`, _status: 'draft' })
    const text = await created.text()
    expect(created.status, text).toBe(201)
    return (JSON.parse(text) as { doc: { id: number | string } }).doc.id
  }

  beforeAll(async () => {
    pageId = await draftPage('Scheduled launch')
    otherPageId = await draftPage('Other scheduled page')
    const scheduled = await serverFunction(server, 'editor', 'schedule-publish', { type: 'publish', date: inAWeek(), doc: { relationTo: 'pages', value: pageId } })
    expect(scheduled.status, scheduled.text).toBe(200)
    const jobs = await scheduledJobsOf(server, pageId)
    expect(jobs, scheduled.text).toHaveLength(1)
    editorsJob = jobs[0] as Job
  })

  it.each(['viewer', 'anonymous'] as const)('refuses a %s who cancels an editor’s scheduled publication: the job stays', async (caller) => {
    // What the admin's delete button sends, and the same naming the document.
    await serverFunction(server, caller, 'schedule-publish', { deleteID: editorsJob.id })
    await serverFunction(server, caller, 'schedule-publish', { type: 'publish', deleteID: editorsJob.id, date: inAWeek(), doc: { relationTo: 'pages', value: pageId } })
    expect((await scheduledJobsOf(server, pageId)).map((job) => job.id)).toEqual([editorsJob.id])
  })

  it.each(['viewer', 'anonymous'] as const)('refuses a %s who queues publications: no job is added', async (caller) => {
    for (let i = 0; i < 3; i++) await serverFunction(server, caller, 'schedule-publish', { type: 'unpublish', date: inAWeek(), doc: { relationTo: 'pages', value: pageId } })
    expect(await scheduledJobsOf(server, pageId)).toHaveLength(1)
  })

  it('refuses deleting a job through another document, even to an editor', async () => {
    const answer = await serverFunction(server, 'editor', 'schedule-publish', { type: 'publish', deleteID: editorsJob.id, date: inAWeek(), doc: { relationTo: 'pages', value: otherPageId } })
    expect(answer.text).toMatch(/may not schedule/)
    expect((await scheduledJobsOf(server, pageId)).map((job) => job.id)).toEqual([editorsJob.id])
    // The refused call queued nothing for the other page either.
    expect(await scheduledJobsOf(server, otherPageId)).toHaveLength(0)
  })

  it('refuses targets that cannot be scheduled and malformed arguments without a job', async () => {
    for (const args of [
      { type: 'publish', date: inAWeek(), doc: { relationTo: 'users', value: 1 } },
      { type: 'publish', date: inAWeek(), doc: { relationTo: 'payload-jobs', value: editorsJob.id } },
      { type: 'publish', date: inAWeek(), global: 'site-settings' },
      { type: 'drop-table', date: inAWeek(), doc: { relationTo: 'pages', value: pageId } },
      { type: 'publish', date: 'tomorrow-ish', doc: { relationTo: 'pages', value: pageId } },
    ]) {
      const answer = await serverFunction(server, 'admin', 'schedule-publish', args)
      expect(answer.status, JSON.stringify(args)).toBeLessThan(500)
    }
    expect(await scheduledJobsOf(server, pageId)).toHaveLength(1)
  })

  it('caps the upcoming publications of one document', async () => {
    for (let i = 0; i < 12; i++) await serverFunction(server, 'editor', 'schedule-publish', { type: 'publish', date: inAWeek(), doc: { relationTo: 'pages', value: otherPageId } })
    expect(await scheduledJobsOf(server, otherPageId)).toHaveLength(10)
  })

  it('lets the editor who may publish cancel the publication, as the admin’s delete button does', async () => {
    const cancelled = await serverFunction(server, 'editor', 'schedule-publish', { deleteID: editorsJob.id })
    expect(cancelled.status, cancelled.text).toBe(200)
    expect(cancelled.text).not.toMatch(/error/)
    // Gone, and nothing queued in its place.
    expect(await scheduledJobsOf(server, pageId)).toEqual([])
    expect((await schedulePublishJobs(server)).filter((job) => !/"doc"/.test(job.input))).toEqual([])
  })
})
