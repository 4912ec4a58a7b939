import type { DataBlockNeeds } from '@/layers/shared/types'
import type { EntityTableBlock } from '@/payload-types'

/** The table's first page comes with the HTML: the layer's first `pageSize` rows. */
export const entityTableData: DataBlockNeeds<EntityTableBlock> = {
  blockType: 'entityTable',
  layers: (block) => [block.layer],
  preview: (block, request) => {
    request.headSize = Math.max(request.headSize, block.pageSize ?? 20)
  },
}
