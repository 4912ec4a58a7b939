import { describe, expect, it } from 'vitest'

import { databaseKind } from '@/db'
import { exposureWarning, InvalidEnvironmentError, parseEnv } from '@/env'

const valid = { APP_SECRET: 'a'.repeat(32) }

const problemsOf = (source: Record<string, string | undefined>) => {
  try {
    parseEnv(source)
    return []
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidEnvironmentError)
    return (error as InvalidEnvironmentError).problems
  }
}

describe('environment settings', () => {
  it('accepts the embedded defaults with only a secret', () => {
    const env = parseEnv(valid)
    expect(env.DATABASE_URI).toBe('file:./data/dashboard.db')
    expect(env.PORT).toBe(3000)
    expect(env.ENABLE_AI).toBe(false)
    expect(env.ALLOW_SIGNUP).toBe(true)
  })

  it('names APP_SECRET when it is missing or short', () => {
    expect(problemsOf({})).toEqual([expect.stringMatching(/^APP_SECRET: /)])
    expect(problemsOf({ APP_SECRET: 'short' }).join()).toMatch(/APP_SECRET: must be at least 32 characters/)
  })

  it.each([
    ['PUBLIC_SERVER_URL', 'not a url'],
    ['NGSI_LD_BROKER_URL', 'ftp://broker'],
    ['DATABASE_URI', 'mysql://db/x'],
    ['PORT', '70000'],
    ['REDIS_URL', 'http://redis'],
    ['NGSI_LD_TENANT', 'bad tenant!'],
    ['ALLOW_SIGNUP', 'yes'],
  ])('names %s when it is malformed', (name, value) => {
    expect(problemsOf({ ...valid, [name]: value }).join()).toContain(`${name}: `)
  })

  it('turns AI on only for the exact value "true"', () => {
    expect(parseEnv({ ...valid, ENABLE_AI: 'true' }).ENABLE_AI).toBe(true)
    for (const value of ['TRUE', '1', 'yes', 'false', '']) expect(parseEnv({ ...valid, ENABLE_AI: value }).ENABLE_AI).toBe(false)
  })

  it('reads TRUST_PROXY as a number of proxies, true and false as 1 and 0, and refuses anything else', () => {
    for (const [value, hops] of [[undefined, 0], ['', 0], ['false', 0], ['true', 1], ['0', 0], ['2', 2]] as const) {
      expect(parseEnv({ ...valid, TRUST_PROXY: value }).TRUST_PROXY).toBe(hops)
    }
    for (const value of ['yes', '-1', '1.5', '999']) expect(problemsOf({ ...valid, TRUST_PROXY: value }).join()).toContain('TRUST_PROXY: ')
  })

  it('refuses auto-login in production and allows it in development', () => {
    const email = { DEV_AUTO_LOGIN_EMAIL: 'dev@example.org' }
    expect(problemsOf({ ...valid, ...email, NODE_ENV: 'production' }).join()).toContain('DEV_AUTO_LOGIN_EMAIL')
    expect(parseEnv({ ...valid, ...email, NODE_ENV: 'development' }).DEV_AUTO_LOGIN_EMAIL).toBe('dev@example.org')
  })

  it('reads the model chain: GATEWAY_MODEL alone, GATEWAY_FALLBACK_MODELS comma-separated and ordered', () => {
    const env = parseEnv({ ...valid, GATEWAY_MODEL: 'openai/gpt-4o-mini', GATEWAY_FALLBACK_MODELS: ' a/b:free, c/d ,,e.f/g-h:nitro ' })
    expect(env.GATEWAY_MODEL).toBe('openai/gpt-4o-mini')
    expect(env.GATEWAY_FALLBACK_MODELS).toEqual(['a/b:free', 'c/d', 'e.f/g-h:nitro'])
    expect(parseEnv(valid).GATEWAY_FALLBACK_MODELS).toEqual([])
  })

  it.each([
    ['GATEWAY_MODEL', 'openai/gpt-4o-mini,meta-llama/llama-3.3-70b-instruct:free'],
    ['GATEWAY_MODEL', 'gpt-4o'],
    ['GATEWAY_FALLBACK_MODELS', 'a/b, gpt-4o'],
    ['GATEWAY_FALLBACK_MODELS', 'a/b c/d'],
    ['GATEWAY_FALLBACK_MODELS', 'a/b:'],
  ])('names %s when a model is not <vendor>/<model>[:suffix] (%s)', (name, value) => {
    expect(problemsOf({ ...valid, [name]: value }).join()).toContain(`${name}: `)
  })

  it('treats empty optional settings as unset', () => {
    const env = parseEnv({ ...valid, REDIS_URL: '', PUBLIC_MAP_TOKEN: '', NGSI_LD_TENANT: '' })
    expect(env.REDIS_URL).toBeUndefined()
    expect(env.PUBLIC_MAP_TOKEN).toBeUndefined()
    expect(env.NGSI_LD_TENANT).toBeUndefined()
  })
})

describe('database adapter choice', () => {
  it.each([
    ['file:./data/x.db', 'sqlite'],
    ['postgres://u@h/db', 'postgres'],
    ['postgresql://u@h/db', 'postgres'],
    ['mongodb://h/db', 'mongodb'],
    ['mongodb+srv://cluster/db', 'mongodb'],
  ])('%s → %s', (uri, kind) => expect(databaseKind(uri)).toBe(kind))

  it('refuses any other scheme with a message naming DATABASE_URI', () => {
    expect(() => databaseKind('mysql://h/db')).toThrow(/DATABASE_URI: unsupported scheme/)
  })
})

describe('exposure warning', () => {
  it('warns of plain http on a public host, not of https or of this machine', () => {
    expect(exposureWarning({ PUBLIC_SERVER_URL: 'http://dashboard.city.example' })).toMatch(/plain http.*https:\/\//)
    expect(exposureWarning({ PUBLIC_SERVER_URL: 'http://192.0.2.10:3000' })).toMatch(/not marked Secure/)
    for (const safe of ['https://dashboard.city.example', 'http://localhost:3000', 'http://127.0.0.1:3471', 'http://[::1]:3000']) {
      expect(exposureWarning({ PUBLIC_SERVER_URL: safe }), safe).toBeUndefined()
    }
  })
})
