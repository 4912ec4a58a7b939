import { RichText } from '@/components/RichText'
import type { ContentBlock as ContentBlockData } from '@/payload-types'

export function ContentBlock({ columns }: ContentBlockData) {
  return (
    <section className="block content-block">
      {(columns ?? []).map((column, index) => (
        <div key={column.id ?? index} className={`column column--${column.width ?? 'full'}`}>
          <RichText data={column.richText} />
        </div>
      ))}
    </section>
  )
}
