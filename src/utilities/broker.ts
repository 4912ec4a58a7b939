
import { createNgsiClient, type NgsiClient, processPageSizeMemory } from '@/ngsi'
import { env } from '@/env'

let client: NgsiClient | undefined

/** The one NGSI-LD client of this process, configured from the environment. */
export function brokerClient(): NgsiClient {
  const settings = env()
  client ??= createNgsiClient({
    brokerUrl: settings.NGSI_LD_BROKER_URL,
    tenant: settings.NGSI_LD_TENANT,
    contextUrl: settings.NGSI_LD_CONTEXT_URL,
    maxPageSize: settings.NGSI_LD_PAGE_SIZE,
    pageConcurrency: settings.NGSI_LD_PAGE_CONCURRENCY,
    pageSizeMemory: processPageSizeMemory(),
    // Each layer caps itself (maxFeatures, up to 500,000); the client's own default cap is 50,000.
    maxEntities: 500_000,
  })
  return client
}
