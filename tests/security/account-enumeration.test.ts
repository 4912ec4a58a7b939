import { rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

import { accounts, createFirstUser, PASSWORD } from '../helpers/accounts'
import { ensureMigrated } from '../helpers/migratedDatabases'

import { expectRefusal } from './http'
import { type AppServer, startAppServer } from './servers'

// V2.5 / V3 account enumeration through a closed sign-up (ALLOW_SIGNUP=false, the first admin made):
// Payload checks access after our hooks, so a taken address used to get our "could not be created"
// (400) and a free one Payload's 403. Every refused sign-up must read the same, whatever door (REST,
// GraphQL) and however the address is written. Open sign-up: tests/security/payload-sign-in.test.ts.

let server: AppServer
let file: string
let admin: string
let clients = 0
/** A client of its own for each request (the server trusts the proxy): no budget answers instead. */
const nextClient = () => `198.51.100.${++clients}`

beforeAll(async () => {
  file = path.join(os.tmpdir(), `citydash-sec-enum-${process.pid}-${Date.now()}.db`)
  const databaseUri = `file:${file}`
  await ensureMigrated(databaseUri)
  server = await startAppServer({ databaseUri, brokerUrl: inject('securityBrokerUrl'), env: { TRUST_PROXY: 'true', ALLOW_SIGNUP: 'false' } })
  admin = (await createFirstUser(server.baseUrl)).token
})

afterAll(() => {
  server?.stop()
  if (file) rmSync(file, { force: true })
})

const signUp = (body: unknown) =>
  fetch(`${server.baseUrl}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl, 'x-forwarded-for': nextClient() },
    body: JSON.stringify(body),
  })
const signUpOverGraphql = (email: string) =>
  fetch(`${server.baseUrl}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl, 'x-forwarded-for': nextClient() },
    body: JSON.stringify({ query: `mutation { createUser(data: { email: ${JSON.stringify(email)}, password: ${JSON.stringify(PASSWORD)} }) { id } }` }),
  })

/** An error answer without its request id (which differs per request, by design). */
const errorOf = (text: string) => {
  const { requestId: _requestId, ...rest } = JSON.parse(text) as Record<string, unknown>
  return JSON.stringify(rest)
}

const storedEmails = async () => {
  const response = await fetch(`${server.baseUrl}/api/users?limit=100&depth=0`, { headers: { authorization: `JWT ${admin}` } })
  return ((await response.json()) as { docs: { email: string }[] }).docs.map((user) => user.email)
}

describe('a closed sign-up tells no one which addresses have accounts', () => {
  const taken = accounts.admin.email
  const variants: [string, string][] = [
    ['a free address', `free-${Date.now()}@example.org`],
    ['the admin’s address', taken],
    ['the admin’s address in capitals, with spaces', `  ${taken.toUpperCase()} `],
  ]

  it('answers every sign-up over REST with the same status and body, and stores none', async () => {
    const answers = []
    for (const [name, email] of variants) {
      const response = await signUp({ email, password: PASSWORD, name: 'Someone' })
      answers.push({ name, status: response.status, body: errorOf(await expectRefusal(response, 403)) })
    }
    // And one with no address at all: the same refusal, not a validation error naming the field.
    const bare = await signUp({ password: PASSWORD })
    answers.push({ name: 'no address', status: bare.status, body: errorOf(await expectRefusal(bare, 403)) })
    for (const answer of answers) expect({ status: answer.status, body: answer.body }, answer.name).toEqual({ status: answers[0]!.status, body: answers[0]!.body })
    expect(answers[0]!.body).not.toMatch(/already|registered|exists|unique|taken/i)
    expect(await storedEmails()).toEqual([taken])
  })

  it('answers every createUser mutation alike (GraphQL), and stores none', async () => {
    const bodies = []
    for (const [name, email] of variants) {
      const response = await signUpOverGraphql(email)
      const text = await response.text()
      bodies.push({ name, status: response.status, errors: (JSON.parse(text) as { errors?: { message: string }[] }).errors?.map((error) => error.message) })
    }
    for (const answer of bodies) expect({ status: answer.status, errors: answer.errors }, answer.name).toEqual({ status: bodies[0]!.status, errors: bodies[0]!.errors })
    expect(bodies[0]!.errors?.length).toBeGreaterThan(0)
    expect(await storedEmails()).toEqual([taken])
  })
})
