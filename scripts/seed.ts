import { loadDotEnv } from './dotenv'

loadDotEnv()

const { getPayload } = await import('payload')
const { default: config } = await import('../payload.config')
const { seedDemoContent } = await import('../src/seed')

const payload = await getPayload({ config })
const result = await seedDemoContent(payload)
console.log(result === 'seeded' ? 'Demo content seeded.' : 'Content already present: seeding skipped.')
process.exit(0)
