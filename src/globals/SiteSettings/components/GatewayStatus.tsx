import { gatewayKeyWarning } from '@/ai/entry/settings'

import { TestGatewayButton } from './TestGatewayButton'

/** Server side of Site settings → AI: the key warning is known only to the server. */
export function GatewayStatus() {
  return <TestGatewayButton warning={gatewayKeyWarning()} />
}
