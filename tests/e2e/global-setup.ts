import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import type { TestProject } from 'vitest/node'

import { portFromSetting, startProcess, stopAll, waitForUrl } from '../../scripts/processes'
import { productionServer } from '../../scripts/start'
import { startFakeGeocoding } from '../../demo/services/geocoding'
import { startFakeWeather } from '../../demo/services/weather'
import { reply, startFakeGateway } from '../fakes/gateway'
import { ensureMigrated } from '../helpers/migratedDatabases'
import { ensureProductionBuild } from '../helpers/productionBuild'

import { e2eServerEnv } from './own-server'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    brokerUrl: string
  }
}

const bin = (name: string) => path.join('node_modules', '.bin', name)

/**
 * The production build against a fresh SQLite database holding the committed migrations' schema,
 * with the demo broker beside it: what `npm run demo` runs, on ports of its own.
 *
 * The server starts with no accounts and no content. Each file makes what it needs (the accounts
 * through tests/helpers/accounts.ts, which leaves those that exist alone), so the files run alone
 * or in any order; their names carry no number. A file that needs an empty server or other
 * settings starts its own (own-server.ts).
 */
export default async function setup(project: TestProject) {
  if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) {
    throw new Error('Chromium not found: `apt-get install -y chromium` (or set CHROMIUM_PATH)')
  }
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'citydash-e2e-'))
  // Free ports unless chosen, and a chosen port that is busy is refused: another server there
  // would answer the health check and the suite would test the wrong thing.
  const port = await portFromSetting('E2E_PORT')
  const brokerPort = await portFromSetting('E2E_BROKER_PORT')
  const baseUrl = `http://127.0.0.1:${port}`
  const brokerUrl = `http://127.0.0.1:${brokerPort}`
  // The model gateway is a local fake (the contract in tests/fakes/gateway.ts): AI on, no network.
  const gateway = await startFakeGateway({ defaultStep: reply.success('Tram line 3 opens on Monday, with a tram every ten minutes.') })
  // A citizen's answer takes the gateway a while: the page must not wait for it (ai-helper.test.ts).
  gateway.script(reply.success('The city museum opens at ten on Sundays.', { promptIncludes: 'city museum', delayMs: 4000, times: Infinity }))
  // Weather and geocoding: the demo's stand-ins; one address has a hostile label (XSS checks, map.test.ts).
  const weather = await startFakeWeather()
  const geocoding = await startFakeGeocoding({
    places: [{ match: 'hostile', formatted: '<img src=x onerror=alert(1)> Street, Santander', lat: 43.465, lng: -3.8, type: 'road', countryCode: 'es', confidence: 9, span: 0.002 }],
  })
  const env: NodeJS.ProcessEnv = {
    ...e2eServerEnv(workDir, port),
    NGSI_LD_BROKER_URL: brokerUrl,
    ENABLE_AI: 'true',
    GATEWAY_URL: gateway.url,
    GATEWAY_API_KEY: 'sk-or-v1-e2e-fake-key',
    GATEWAY_MODEL: 'openai/gpt-4o-mini',
    WEATHER_API_URL: weather.url,
    WEATHER_API_KEY: weather.apiKey,
    GEOCODING_API_URL: geocoding.url,
    GEOCODING_API_KEY: geocoding.apiKey,
    // Live updates: subscriptions are read back every 5 s, so a broker that cannot notify is noticed soon (live.test.ts).
    LIVE_CHECK_SECONDS: '5',
    // The demo broker (not in live mode) moves its readings every 5 minutes without notifying anyone.
    LIVE_DATA_CHECK: 'false',
  }

  const teardown = () => {
    stopAll()
    void gateway.close()
    void weather.close()
    void geocoding.close()
    rmSync(workDir, { recursive: true, force: true })
  }
  try {
    // Hostile names: entity 3 of every type is called <img src=x onerror=alert(1)> (XSS checks).
    startProcess(bin('tsx'), ['demo/broker/cli.ts', '--port', String(brokerPort), '--hostile-names', '--temporal'], { env })
    await ensureMigrated(env.DATABASE_URI!)
    await ensureProductionBuild()
    const server = productionServer(env, port)
    startProcess(server.command, server.args, { env: server.env })
    await waitForUrl(`${baseUrl}/api/health`, { timeoutMs: 90_000 })
    await waitForUrl(`${brokerUrl}/version`, { timeoutMs: 30_000, accept: () => true })
  } catch (error) {
    // Vitest runs no teardown for a failed setup: leave no server holding the ports.
    teardown()
    throw error
  }

  project.provide('baseUrl', baseUrl)
  project.provide('brokerUrl', brokerUrl)
  return teardown
}
