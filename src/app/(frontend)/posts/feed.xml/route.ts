import { newsFeed } from '@/site/feed'

// Rebuilt when a post is published or changed (revalidatePost), and at least every 10 minutes.
export const revalidate = 600

/** GET /posts/feed.xml → the news as an Atom feed (published posts only). */
export async function GET() {
  return new Response(await newsFeed(), { headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' } })
}
