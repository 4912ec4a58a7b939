import type { Media } from '@/payload-types'

type Size = 'thumbnail' | 'card' | 'wide' | 'og'

export function MediaImage({ media, size, className }: { media: Media; size?: Size; className?: string }) {
  const variant = size ? media.sizes?.[size] : undefined
  const src = variant?.url ?? media.url
  if (!src) return null
  return (
    // Plain <img>: uploads are already resized by sharp into the sizes above.
    // eslint-disable-next-line @next/next/no-img-element
    <img
      src={src}
      alt={media.alt}
      width={variant?.width ?? media.width ?? undefined}
      height={variant?.height ?? media.height ?? undefined}
      loading="lazy"
      className={className}
    />
  )
}
