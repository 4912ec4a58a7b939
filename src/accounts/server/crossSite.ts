/** Whether a browser request comes from another site: its Origin, else its Sec-Fetch-Site, says so. */
export function isCrossSite(headers: Headers, serverUrl: string): boolean {
  const origin = headers.get('origin')
  if (origin !== null) return origin !== new URL(serverUrl).origin
  const site = headers.get('sec-fetch-site')
  return site !== null && site !== 'same-origin' && site !== 'none'
}
