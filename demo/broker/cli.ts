// tsx demo/broker/cli.ts [--port 1026] [--host 127.0.0.1] [--flavor orion-ld|scorpio|stellio]
//   [--entities 60] [--seed n] [--fault slow|down|5xx|garbage] [--delay-ms 2000]
//   [--temporal] [--temporal-limit 10000] [--hostile-names] [--live-ms 5000]

import { parseArgs } from 'node:util'

import { faultNames, startDemoBroker, type Fault } from './server'
import { flavorNames, type Flavor } from './flavors'

const USAGE = `Usage: tsx demo/broker/cli.ts [options]
  --port <n>            port to listen on (default $DEMO_BROKER_PORT or 1026; 0 = any free port)
  --host <addr>         address to bind (default 127.0.0.1)
  --flavor <name>       ${flavorNames.join(' | ')} (default orion-ld)
  --entities <n>        entities per type per city (default 60; above 1000: that many AirQualityObserved in the first city)
  --seed <n>            data seed (same seed, same data)
  --fault <name>        start with a fault: ${faultNames.join(' | ')}
  --delay-ms <n>        delay of the 'slow' fault (default 2000)
  --temporal            serve the temporal API on orion-ld too (as if Mintaka were behind it)
  --temporal-limit <n>  stellio: instances per attribute before answering 206
  --hostile-names       name entity 3 of every type <img src=x onerror=alert(1)> (XSS tests)
  --live-ms <n>         live mode: every n ms one entity per type and city gets new readings (default 0 = off)
  --help                show this help
Faults can be switched at run time: POST /__demo/fault {"fault": "slow" | null, "delayMs": 500};
notifications made to fail as if the dashboard were unreachable: POST /__demo/notifications {"reachable": false},
or never sent with no failure reported: POST /__demo/notifications {"silent": true}
Writes: PATCH|POST /ngsi-ld/v1/entities/{id}/attrs, POST /ngsi-ld/v1/entityOperations/upsert, DELETE /ngsi-ld/v1/entities/{id};
subscriptions: /ngsi-ld/v1/subscriptions (HTTP notifications in the flavor's format).`

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`)
  process.exit(2)
}

function integerOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value)) fail(`--${name} must be a non-negative integer, got '${value}'`)
  return Number(value)
}

function parseCommandLine() {
  let values
  try {
    ;({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        flavor: { type: 'string' },
        entities: { type: 'string' },
        seed: { type: 'string' },
        fault: { type: 'string' },
        'delay-ms': { type: 'string' },
        temporal: { type: 'boolean' },
        'temporal-limit': { type: 'string' },
        'hostile-names': { type: 'boolean' },
        'live-ms': { type: 'string' },
        help: { type: 'boolean' },
      },
    }))
  } catch (error) {
    fail((error as Error).message)
  }
  if (values.help) {
    console.log(USAGE)
    process.exit(0)
  }
  if (values.flavor !== undefined && !flavorNames.includes(values.flavor as Flavor)) fail(`Unknown flavor '${values.flavor}'`)
  if (values.fault !== undefined && !faultNames.includes(values.fault as Fault)) fail(`Unknown fault '${values.fault}'`)
  const entities = integerOption(values.entities, 'entities')
  if (entities === 0) fail('--entities must be at least 1')
  return {
    port: integerOption(values.port ?? process.env.DEMO_BROKER_PORT, 'port') ?? 1026,
    host: values.host ?? '127.0.0.1',
    flavor: values.flavor as Flavor | undefined,
    entities,
    seed: integerOption(values.seed, 'seed'),
    fault: values.fault as Fault | undefined,
    faultDelayMs: integerOption(values['delay-ms'], 'delay-ms'),
    temporal: values.temporal,
    temporalInstanceLimit: integerOption(values['temporal-limit'], 'temporal-limit'),
    hostileNames: values['hostile-names'],
    liveIntervalMs: integerOption(values['live-ms'], 'live-ms'),
  }
}

const startedAt = performance.now()
const broker = await startDemoBroker(parseCommandLine())
console.log(
  `demo broker (${broker.flavor}) listening on ${broker.url} with ${broker.entityCount} entities in tenants ${broker.tenants.join(', ')}, ready in ${Math.round(performance.now() - startedAt)} ms`,
)

let stopping = false
const stop = (signal: string) => {
  if (stopping) return
  stopping = true
  console.log(`demo broker: ${signal}, shutting down`)
  broker.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.on('SIGINT', () => stop('SIGINT'))
process.on('SIGTERM', () => stop('SIGTERM'))
