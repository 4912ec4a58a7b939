import { stat } from 'node:fs/promises'
import path from 'node:path'

import type { UploadConfig } from 'payload'

type UploadHandler = NonNullable<UploadConfig['handlers']>[number]

/**
 * A media document whose file is gone from disk answers 404 instead of Payload's 500. Runs
 * before Payload's own file handler, which serves the file when it is there (a handler that
 * returns nothing passes the request on).
 */
export function missingFileIs404(staticDir: string): UploadHandler {
  const handler = async (_req: unknown, { params }: { params: { filename: string } }): Promise<Response | undefined> => {
    const file = path.resolve(staticDir, params.filename)
    if (!file.startsWith(staticDir + path.sep)) return undefined
    const isFile = await stat(file).then(
      (stats) => stats.isFile(),
      () => false,
    )
    return isFile ? undefined : Response.json({ error: 'File not found' }, { status: 404 })
  }
  return handler as UploadHandler
}
