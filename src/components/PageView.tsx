import { notFound } from 'next/navigation'

import { RenderBlocks } from '@/blocks/RenderBlocks'
import { findPage } from '@/utilities/queries'

export async function PageView({ slug, draft }: { slug: string; draft: boolean }) {
  const page = await findPage(slug, { draft })
  if (!page) {
    // The home page may not exist yet (fresh install): say so instead of a bare 404.
    if (slug === 'home') {
      return (
        <article className="page">
          <h1>Welcome</h1>
          <p>This dashboard has no published home page yet. Editors can create one in the admin.</p>
        </article>
      )
    }
    notFound()
  }
  return (
    <article className="page" data-tenant={page.tenant ?? undefined}>
      <h1>{page.title}</h1>
      <RenderBlocks blocks={page.layout} />
    </article>
  )
}
