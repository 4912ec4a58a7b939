import Link from 'next/link'

export default function NotFound() {
  return (
    <article className="page">
      <h1>Page not found</h1>
      <p>
        This page does not exist or is not published. <Link href="/">Go to the home page</Link>.
      </p>
    </article>
  )
}
