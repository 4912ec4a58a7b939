import type { DataBlockNeeds } from '@/layers/shared/types'
import type { AlertsPanelBlock } from '@/payload-types'

/** The panel lists its layers' alerts: every preview carries them. */
export const alertsPanelData: DataBlockNeeds<AlertsPanelBlock> = {
  blockType: 'alertsPanel',
  layers: (block) => block.layers,
}
