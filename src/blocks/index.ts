import { CallToActionBlock } from './CallToAction/config'
import { ContentBlock } from './Content/config'
import { MediaBlock } from './MediaBlock/config'

/** The blocks editors can put on a page, in the order the admin offers them. */
export const pageBlocks = [ContentBlock, CallToActionBlock, MediaBlock]
