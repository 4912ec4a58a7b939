import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import ts from 'typescript'
import { describe, expect, it } from 'vitest'

import { adminI18n } from '@/i18n/admin'

// The admin speaks the editor's language (English, Spanish, European Portuguese) through one
// message system: the `custom:` messages of src/i18n/admin.ts. Here, every message exists in every
// language with the same placeholders, and no admin component writes words of its own.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

const { en, es, pt } = adminI18n.translations
const english: Record<string, string> = en.custom
const translations: Record<string, Record<string, string>> = { es: es.custom, pt: pt.custom }

const placeholders = (message: string) => [...message.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]!).sort()

// Brazilian words where European Portuguese has its own (ficheiro, definições, ecrã, utilizador, palavra-passe, guardar).
const BRAZILIAN = /(?<!\p{L})(arquivos?|configuraç(ão|ões)|telas?|usuári[oa]s?|senhas?|salvar|cadastr\p{L}*|deletar|excluir)(?!\p{L})/iu

describe('the admin messages', () => {
  it('are all there in English, none empty', () => {
    expect(Object.keys(english).length).toBeGreaterThan(0)
    for (const [key, message] of Object.entries(english)) expect(message.trim(), key).not.toBe('')
  })

  describe.each(Object.keys(translations))('in %s', (language) => {
    const messages = translations[language]!

    it('have exactly the keys of the English ones, none empty', () => {
      expect(Object.keys(messages).sort()).toEqual(Object.keys(english).sort())
      for (const [key, message] of Object.entries(messages)) expect(message.trim(), key).not.toBe('')
    })

    it('use the placeholders of the English ones, no more and no fewer', () => {
      for (const [key, message] of Object.entries(english)) expect(placeholders(messages[key] ?? ''), key).toEqual(placeholders(message))
    })
  })

  it('are European Portuguese in Portuguese', () => {
    const brazilian = Object.entries(translations.pt!).filter(([, message]) => BRAZILIAN.test(message))
    expect(brazilian).toEqual([])
  })

  const code = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && file.split(path.sep).join('/') !== 'i18n/admin.ts')
    .map((file) => readFileSync(path.join(ROOT, 'src', file), 'utf8'))
    .join('\n')

  it('are all there for every `custom:` key the code names', () => {
    const named = [...code.matchAll(/custom:(\w+)/g)].map((match) => match[1]!)
    expect(named.filter((key) => !(key in english))).toEqual([])
  })

  it('are each named by some code (adminText, adminMessage): none left over', () => {
    expect(Object.keys(english).filter((key) => !code.includes(`'${key}'`))).toEqual([])
  })
})

// --- No words of their own in the admin components ---

/** The admin's components and the helpers beside them (their messages reach the editor too). */
const ADMIN_COMPONENTS = [
  /^src\/collections\/[^/]+\/components\/.+\.tsx?$/,
  /^src\/email\/admin\/.+\.tsx$/,
  /^src\/globals\/[^/]+\/components\/.+\.tsx?$/,
  /^src\/fields\/[^/]+\.tsx$/,
]

/**
 * Text a component may write itself, by its exact (trimmed) wording, with the reason. Keep it
 * small: names and symbols that read the same in every language, never a word an editor reads.
 */
const ALLOWED = new Map<string, string>([])

/** The props whose text an editor reads (or hears, from a screen reader). */
const TEXT_PROPS = new Set(['aria-label', 'aria-description', 'title', 'placeholder', 'label', 'alt'])

const hasLetters = (text: string) => /\p{L}/u.test(text)
/** Words an editor reads: "Save the document first.", "Inserted. Check it" (a capitalised word and more), "found, free", "(no sample value)" (two words). */
const wordsLike = (text: string) => /^\s*\p{Lu}\p{Ll}*[\s.,:;!?]+\p{L}/u.test(text) || /(?<![\p{L}-])\p{Ll}{2,}[,;:]?\s+\(?\p{Ll}{2,}/u.test(text)
/** CSS, which has words too: "1px solid var(--theme-elevation-150)", "display: none !important". */
const cssLike = (text: string) => /var\(--|!important|^\s*[\d.]+(px|rem|em)\s/.test(text)

type Finding = { line: number; text: string; where: string }

/** The texts of a string or template literal (a template's literal parts; its `${…}` are not text). */
function literalTexts(node: ts.Node): string[] | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text]
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)]
  return null
}

const PASSING_OPERATORS = [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken]

/** Where a literal's value goes: up through `a ? b : c`, `a && b`, `a ?? b` and parentheses to what takes it. */
function destination(node: ts.Node): ts.Node {
  let current = node
  for (;;) {
    const parent = current.parent
    const passesOn =
      ts.isParenthesizedExpression(parent) ||
      (ts.isConditionalExpression(parent) && parent.condition !== current) ||
      (ts.isBinaryExpression(parent) && PASSING_OPERATORS.includes(parent.operatorToken.kind))
    if (!passesOn) return current
    current = parent
  }
}

/** What holds code, not text: a `<style>` or `<script>` element, a `style={…}` or `className` prop. */
const holdsCode = (node: ts.Node) =>
  (ts.isJsxElement(node) && ['style', 'script'].includes(node.openingElement.tagName.getText())) ||
  (ts.isJsxAttribute(node) && ['style', 'className'].includes(node.name.getText()))

/** What a literal becomes in JSX: a rendered child or a text prop (its text is read), another prop (code), or null (not JSX: see its words). */
function jsxUse(node: ts.Node): string | 'code' | null {
  const container = destination(node).parent
  const attribute = ts.isJsxAttribute(container) ? container : ts.isJsxExpression(container) && ts.isJsxAttribute(container.parent) ? container.parent : null
  if (attribute) return TEXT_PROPS.has(attribute.name.getText()) ? `${attribute.name.getText()}${attribute === container ? '=' : '={…}'}` : 'code'
  return ts.isJsxExpression(container) && (ts.isJsxElement(container.parent) || ts.isJsxFragment(container.parent)) ? 'child {…}' : null
}

/** Literals that are no text for anyone: module names, the 'use client' directive, literal types. */
function isCode(node: ts.Node): boolean {
  const parent = node.parent
  if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isExternalModuleReference(parent) || ts.isLiteralTypeNode(parent)) return true
  return ts.isExpressionStatement(parent) && ts.isSourceFile(parent.parent)
}

/**
 * The words a component writes itself instead of taking them from src/i18n/admin.ts: JSX text,
 * literals it renders or gives a text prop (any letter), and words in its code (a message it
 * sets, returns or throws), which only the look of the words tells from code.
 */
function ownWords(fileName: string, source: string, allowed: ReadonlyMap<string, string> = ALLOWED): Finding[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const findings: Finding[] = []
  const report = (node: ts.Node, text: string, where: string) => {
    if (allowed.has(text.trim())) return
    findings.push({ line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: text.trim(), where })
  }
  const visit = (node: ts.Node) => {
    if (holdsCode(node)) return
    if (ts.isJsxText(node) && hasLetters(node.text)) report(node, node.text, 'JSX text')
    const texts = literalTexts(node)
    if (texts && !isCode(node)) {
      const text = texts.join('…')
      const use = jsxUse(node)
      if (use === null && texts.some((part) => wordsLike(part) && !cssLike(part))) report(node, text, 'words in code')
      else if (use !== null && use !== 'code' && texts.some(hasLetters)) report(node, text, use)
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return findings
}

const adminFiles = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .map((file) => `src/${file.split(path.sep).join('/')}`)
  .filter((file) => ADMIN_COMPONENTS.some((pattern) => pattern.test(file)))
  .sort()

describe('the admin components', () => {
  it('are found', () => {
    const some = ['src/collections/AiDrafts/components/ReviewActions.tsx', 'src/email/admin/EmailOff.tsx', 'src/fields/CitySelect.tsx']
    expect(adminFiles).toEqual(expect.arrayContaining(some))
  })

  it.each(adminFiles)('%s writes no words of its own: they come from src/i18n/admin.ts', (file) => {
    expect(ownWords(file, readFileSync(path.join(ROOT, file), 'utf8'))).toEqual([])
  })

  it('allow only texts some component still writes', () => {
    const written = adminFiles.flatMap((file) => ownWords(file, readFileSync(path.join(ROOT, file), 'utf8'), new Map())).map((finding) => finding.text)
    expect([...ALLOWED.keys()].filter((text) => !written.includes(text))).toEqual([])
  })
})

describe('finding words of their own', () => {
  const found = (source: string, allowed?: ReadonlyMap<string, string>) =>
    ownWords('Fixture.tsx', source, allowed).map(({ where, text }) => `${where}: ${text}`)

  it('finds JSX text, text props, rendered literals and words in code', () => {
    const source = `'use client'
import { Button } from '@payloadcms/ui'
const AVAILABILITY = { found: 'found (paid)', free: 'found, free' }
export function Fixture({ busy, count, free }: { busy: boolean; count?: number; free: boolean }) {
  const problem = 'Choose an entity type first.'
  const describe = (name: string) => \`\${name} (no sample value)\`
  return (
    <section aria-label="Broker preview" title={'Live updates'}>
      <p>Attribute {count}</p>
      <input placeholder="Type here" />
      <Button onClick={() => alert('The key is valid.')}>{busy ? 'Testing…' : 'Test the gateway'}</Button>
      <span>{count ?? 'no target'}</span>
      <span>{\`\${count} entities\${free ? ' (free tier)' : ''}\`}</span>
      <p>{problem}{describe('no2')}{AVAILABILITY.free}</p>
    </section>
  )
}`
    expect(found(source)).toEqual([
      'words in code: found (paid)',
      'words in code: found, free',
      'words in code: Choose an entity type first.',
      'words in code: … (no sample value)',
      'aria-label=: Broker preview',
      'title={…}: Live updates',
      'JSX text: Attribute',
      'placeholder=: Type here',
      'words in code: The key is valid.',
      'child {…}: Testing…',
      'child {…}: Test the gateway',
      'child {…}: no target',
      'child {…}: … entities…',
      'words in code: (free tier)',
    ])
  })

  it('passes messages, data, symbols, code and allowed names', () => {
    const source = `'use client'
import { useTranslation } from '@payloadcms/ui'
import { adminText } from '@/i18n/adminText'
type Mode = 'live' | 'polling'
export function Fixture({ id, mode }: { id: string; mode: Mode }) {
  const { t } = useTranslation()
  const url = \`/admin/collections/ai-drafts/\${id}\`
  const box = { border: '1px solid var(--theme-warning-500, #b58a00)', padding: '0.75rem 1rem' }
  const query = { 'where[status][equals]': 'approved', sort: '-approvedAt' }
  return (
    <section aria-label={adminText(t, 'liveUpdates')} className="field-type layer-live-status" style={{ border: '1px solid var(--theme-elevation-150)' }}>
      ✉︎ {adminText(t, mode === 'live' ? 'livePushed' : 'livePolling')}: {' '}
      <a href={url}>{\`\${id} · \${mode}\`}</a>
      <code>NGSI-LD</code>
      <style>{\`a[href="\${url}"] { display: none !important; }\`}</style>
    </section>
  )
}`
    expect(found(source, new Map([['NGSI-LD', 'a standard’s name']]))).toEqual([])
  })
})
