/**
 * `npm run demo`: the dashboard on embedded defaults, from a fresh clone to a running server.
 * Writes .env when missing, starts the demo broker and (without an SMTP server configured) a local
 * mail catcher with a web inbox, migrates, seeds once, builds when needed, then serves on PORT
 * until stopped.
 */
import { randomBytes } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

import { type MailCatcher, startMailCatcher } from '../demo/mail/inbox'
import { startDemoServices } from '../demo/services'
import { InvalidEnvironmentError, parseEnv } from '../src/env'

import { buildIsCurrent, buildProduction } from './build'
import { loadDotEnv } from './dotenv'
import { migrate, portFromSetting, runToEnd, startProcess, stopAll, waitForUrl } from './processes'
import { productionServer } from './start'

const step = (message: string) => console.log(`\n▶ ${message}`)
const bin = (name: string) => path.join('node_modules', '.bin', name)

function ensureDotEnv() {
  if (existsSync('.env')) return
  step('Writing .env from .env.example with a fresh APP_SECRET')
  copyFileSync('.env.example', '.env')
  const secret = randomBytes(32).toString('hex')
  writeFileSync('.env', readFileSync('.env', 'utf8').replace(/^APP_SECRET=.*$/m, `APP_SECRET=${secret}`))
}

/**
 * Without a configured SMTP server the demo catches its own mail: an SMTP server on this machine and
 * a web inbox to read what was sent (password resets, answered questions). DEMO_MAIL=off leaves
 * email off; DEMO_MAIL_PORT fixes the inbox's port (else a free one).
 */
async function startDemoMail(): Promise<MailCatcher | undefined> {
  if (process.env.SMTP_URL || process.env.SMTP_HOST || process.env.DEMO_MAIL === 'off') return undefined
  const inboxPort = process.env.DEMO_MAIL_PORT ? await portFromSetting('DEMO_MAIL_PORT') : 0
  const catcher = await startMailCatcher({ inboxPort })
  process.env.SMTP_URL = catcher.smtpUrl
  process.env.EMAIL_FROM ||= 'City Dashboard demo <dashboard@demo.localhost>'
  step(`Started the demo mail catcher: SMTP at ${catcher.smtpUrl}, inbox at ${catcher.inboxUrl}`)
  return catcher
}

async function main() {
  ensureDotEnv()
  // Another port on this machine: the public address follows it (sign-in checks the Origin against it).
  if (process.env.PORT && !process.env.PUBLIC_SERVER_URL) process.env.PUBLIC_SERVER_URL = `http://localhost:${process.env.PORT}`
  loadDotEnv()
  Object.assign(process.env, { NODE_ENV: 'production' })
  const mail = await startDemoMail()
  const settings = parseEnv()
  mkdirSync('data', { recursive: true })

  const broker = new URL(settings.NGSI_LD_BROKER_URL)
  if (['127.0.0.1', 'localhost'].includes(broker.hostname) && process.env.DEMO_BROKER !== 'off') {
    step(`Starting the demo NGSI-LD broker at ${broker.origin}`)
    // --temporal: history as the production compose serves it (Orion-LD with Mintaka);
    // --live-ms: readings move every few seconds and subscribers are notified (live updates).
    startProcess(bin('tsx'), ['demo/broker/cli.ts', '--port', broker.port || '80', '--temporal', '--live-ms', '4000'])
    await waitForUrl(`${broker.origin}/version`, { timeoutMs: 30_000, accept: () => true })
  }

  // Weather and geocoding stand-ins for the settings left empty (the server inherits the URLs).
  const services = await startDemoServices()
  if (services.started.length > 0) step(`Started demo stand-ins: ${services.started.join(', ')}`)

  step('Applying database migrations')
  await migrate()

  step('Seeding demo content (only into an empty database)')
  await runToEnd(bin('tsx'), ['scripts/seed.ts'])

  if (await buildIsCurrent()) {
    step('Production build is up to date')
  } else {
    step('Building the production bundle (takes a minute or two)')
    await buildProduction()
  }

  step(`Starting the dashboard on port ${settings.PORT}`)
  const { command, args, env } = productionServer(process.env, settings.PORT)
  const server = startProcess(command, args, { env })
  server.on('exit', (code) => {
    stopAll()
    process.exit(code ?? 1)
  })
  await waitForUrl(`http://127.0.0.1:${settings.PORT}/api/health`, { timeoutMs: 60_000 })
  console.log(`\n✔ City Dashboard is ready: ${settings.PUBLIC_SERVER_URL}`)
  console.log(`  Admin: ${settings.PUBLIC_SERVER_URL}/admin (the first account you create becomes the admin)`)
  if (mail) console.log(`  Mail: every mail the dashboard sends is caught here, nothing leaves this machine: ${mail.inboxUrl}`)
  else if (!settings.SMTP_URL && !settings.SMTP_HOST) console.log('  Mail: off (DEMO_MAIL=off and no SMTP server configured)')
  console.log('  Stop with Ctrl+C.')
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopAll(signal)
    process.exit(0)
  })
}

main().catch((error) => {
  if (error instanceof InvalidEnvironmentError) console.error(`\n✖ ${error.message}`)
  else console.error('\n✖ Demo failed:', error instanceof Error ? error.message : error)
  stopAll()
  process.exit(1)
})
