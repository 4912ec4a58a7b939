import { CmsLink, type CmsLinkData } from '@/components/CmsLink'
import { RichText } from '@/components/RichText'
import type { CallToActionBlock as CallToActionData } from '@/payload-types'

export function CallToActionBlock({ richText, links }: CallToActionData) {
  return (
    <section className="block cta-block">
      <RichText data={richText} />
      <div className="cta-links">
        {(links ?? []).map((row, index) => (
          <CmsLink key={row.id ?? index} link={row.link as CmsLinkData} className="button" />
        ))}
      </div>
    </section>
  )
}
