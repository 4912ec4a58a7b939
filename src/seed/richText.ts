/** Minimal Lexical editor state from plain paragraphs and headings, for seed content and tests. */
type Block = string | { heading: string; level?: 'h2' | 'h3' }

const textNode = (text: string) => ({
  type: 'text',
  detail: 0,
  format: 0,
  mode: 'normal',
  style: '',
  text,
  version: 1,
})

export function richText(...blocks: Block[]) {
  return {
    root: {
      type: 'root',
      format: '' as const,
      indent: 0,
      version: 1,
      direction: 'ltr' as const,
      children: blocks.map((block) =>
        typeof block === 'string'
          ? { type: 'paragraph', format: '', indent: 0, version: 1, direction: 'ltr', textFormat: 0, children: [textNode(block)] }
          : { type: 'heading', tag: block.level ?? 'h2', format: '', indent: 0, version: 1, direction: 'ltr', children: [textNode(block.heading)] },
      ),
    },
  }
}
