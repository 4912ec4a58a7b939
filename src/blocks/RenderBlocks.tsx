import type { Page } from '@/payload-types'

import { CallToActionBlock } from './CallToAction/Component'
import { ContentBlock } from './Content/Component'
import { MediaBlock } from './MediaBlock/Component'

type LayoutBlock = NonNullable<Page['layout']>[number]

const components: { [Type in LayoutBlock['blockType']]: React.ComponentType<Extract<LayoutBlock, { blockType: Type }>> } = {
  content: ContentBlock,
  cta: CallToActionBlock,
  mediaBlock: MediaBlock,
}

export function RenderBlocks({ blocks }: { blocks: LayoutBlock[] | null | undefined }) {
  return (
    <>
      {(blocks ?? []).map((block, index) => {
        const Component = components[block.blockType] as React.ComponentType<LayoutBlock> | undefined
        return Component ? <Component key={block.id ?? index} {...block} /> : null
      })}
    </>
  )
}
