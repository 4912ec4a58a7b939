/** Model ids as the settings take them (GATEWAY_MODEL, the fallback lists of the environment and of Site settings). */

/** `<vendor>/<model>` with an optional `:suffix` (`:free`, `:nitro`, …). */
export const MODEL_ID = /^[A-Za-z0-9~][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*(:[A-Za-z0-9._-]+)?$/

export type ParsedModelList = { models: string[]; problems: string[] }

/** A comma-separated, ordered list: blanks are dropped, each entry must be a model id. */
export function parseModelList(text: string | null | undefined): ParsedModelList {
  const models: string[] = []
  const problems: string[] = []
  for (const entry of (text ?? '').split(',').map((item) => item.trim())) {
    if (entry === '') continue
    if (!MODEL_ID.test(entry)) problems.push(`${JSON.stringify(entry.slice(0, 100))} is not <vendor>/<model> with an optional :suffix`)
    else models.push(entry)
  }
  return { models, problems }
}
