import type { SerializedEditorState } from '@payloadcms/richtext-lexical/lexical'
import { type JSXConvertersFunction, LinkJSXConverter, RichText as LexicalRichText } from '@payloadcms/richtext-lexical/react'

import { validateSafeUrl } from '@/fields/link'
import { documentPath } from '@/site/paths'

type LinkNode = { fields: { doc?: { relationTo?: string; value?: unknown } | null } }

const internalDocToHref = ({ linkNode }: { linkNode: LinkNode }) => {
  const { relationTo, value } = linkNode.fields.doc ?? {}
  const slug = typeof value === 'object' && value && 'slug' in value ? String(value.slug) : ''
  return documentPath(relationTo === 'posts' ? 'posts' : 'pages', slug)
}

const converters: JSXConvertersFunction = ({ defaultConverters }) => {
  const linkConverters = LinkJSXConverter({ internalDocToHref })
  return {
    ...defaultConverters,
    ...linkConverters,
    // Links typed by editors are still untrusted: drop javascript:/data: targets, keep the text.
    link: (args) => {
      const url = (args.node.fields as { url?: string }).url
      if (args.node.fields.linkType !== 'internal' && url && validateSafeUrl(url) !== true) {
        return <span>{args.nodesToJSX({ nodes: args.node.children })}</span>
      }
      const render = linkConverters.link
      return typeof render === 'function' ? render(args) : null
    },
  }
}

export function RichText({ data, className }: { data: SerializedEditorState | null | undefined; className?: string }) {
  if (!data) return null
  return <LexicalRichText data={data} converters={converters} className={className ?? 'prose'} />
}
