import type { Media } from '@/payload-types'

type Size = 'thumbnail' | 'card' | 'wide'

/** The widths sharp makes on upload (src/collections/Media/config.ts), smallest first; `og` is cropped for link previews, not for pages. */
const RESPONSIVE_SIZES = ['thumbnail', 'card', 'wide'] as const

/**
 * An upload at the size the screen needs: `size` is the largest it is ever shown at, and the
 * browser picks from the smaller variants by `sizes` (how wide it is drawn), so a phone never
 * downloads the desktop image.
 */
export function MediaImage({ media, size, sizes, className }: { media: Media; size?: Size; sizes?: string; className?: string }) {
  const variant = size ? media.sizes?.[size] : undefined
  const src = variant?.url ?? media.url
  if (!src) return null
  const largest = size ? RESPONSIVE_SIZES.indexOf(size) : RESPONSIVE_SIZES.length - 1
  const candidates = RESPONSIVE_SIZES.slice(0, largest + 1)
    .map((name) => media.sizes?.[name])
    .filter((candidate) => candidate?.url && candidate.width)
    .map((candidate) => `${candidate!.url} ${candidate!.width}w`)
  return (
    // Plain <img>: uploads are already resized by sharp into the sizes above.
    // eslint-disable-next-line @next/next/no-img-element
    <img
      src={src}
      srcSet={candidates.length > 1 ? candidates.join(', ') : undefined}
      sizes={candidates.length > 1 ? (sizes ?? '100vw') : undefined}
      alt={media.alt}
      width={variant?.width ?? media.width ?? undefined}
      height={variant?.height ?? media.height ?? undefined}
      loading="lazy"
      decoding="async"
      className={className}
    />
  )
}
