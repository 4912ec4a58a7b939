import type { DataBlockNeeds } from '@/layers/shared/types'
import type { MapViewBlock } from '@/payload-types'

/** A map draws every feature of its layers: it needs no preview beyond the layers' meta. */
export const mapViewData: DataBlockNeeds<MapViewBlock> = {
  blockType: 'mapView',
  layers: (block) => block.layers,
}
