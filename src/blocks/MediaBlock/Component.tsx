import { MediaImage } from '@/components/MediaImage'
import type { MediaBlock as MediaBlockData } from '@/payload-types'

export function MediaBlock({ media, caption }: MediaBlockData) {
  if (!media || typeof media !== 'object') return null
  return (
    <figure className="block media-block">
      <MediaImage media={media} size="wide" sizes="(max-width: 72rem) calc(100vw - 2rem), 70rem" />
      {(caption || media.caption) && <figcaption>{caption || media.caption}</figcaption>}
    </figure>
  )
}
