'use client'
import { Button, useDocumentInfo, useLocale, useTranslation } from '@payloadcms/ui'
import { useState } from 'react'

import { adminText } from '@/i18n/adminText'
import { isLocale, LOCALE_NAMES, LOCALES, type Locale } from '@/i18n/locales'

import { adminDraftUrl, generateDraft } from './aiDraftsApi'

type Notice = { text: string; draftId?: number | string }

/** A locale's language named in the editor's ("Spanish", «español»), for a sentence; the list below names each in its own. */
function languageName(locale: Locale, editorLanguage: string): string {
  try {
    return new Intl.DisplayNames([editorLanguage], { type: 'language' }).of(locale) ?? LOCALE_NAMES[locale]
  } catch {
    return LOCALE_NAMES[locale]
  }
}

/**
 * "Translate with AI": asks POST /api/ai/generate for a translation of this document's texts
 * (in the locale being edited) into another locale, and links to the draft in the review queue.
 * Nothing changes in the document until an editor approves and applies the draft, and then only
 * as an unpublished draft of that locale.
 */
export function TranslateWithAiButton() {
  const { i18n, t } = useTranslation()
  const { id, collectionSlug } = useDocumentInfo()
  const current = useLocale()
  const source: Locale = isLocale(current?.code) ? current.code : LOCALES[0]
  const targets = LOCALES.filter((locale) => locale !== source)
  const [target, setTarget] = useState<Locale>(targets[0])
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState<Notice | null>(null)

  if (id === undefined || id === null || !collectionSlug) {
    return <p className="field-description">{adminText(t, 'aiSaveFirstToTranslate')}</p>
  }
  const targetLocale = targets.includes(target) ? target : targets[0]

  const translate = async () => {
    setBusy(true)
    setNotice(null)
    try {
      const outcome = await generateDraft(
        'translate',
        { collection: collectionSlug, id: String(id), sourceLocale: source, targetLocale },
        { collection: collectionSlug, docId: String(id), field: 'translation' },
      )
      setNotice(
        outcome.mode === 'ai'
          ? { text: adminText(t, 'aiTranslationWaiting', { language: languageName(targetLocale, i18n.language) }), draftId: outcome.draft.id }
          : { text: outcome.message },
      )
    } catch (error) {
      setNotice({ text: (error as Error).message })
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="field-type ai-draft-button" style={{ marginBottom: '1.5rem' }}>
      <label className="field-label" style={{ display: 'block' }}>
        {adminText(t, 'aiTranslateInto', { language: languageName(source, i18n.language) })}{' '}
        <select value={targetLocale} onChange={(event) => setTarget(event.target.value as Locale)}>
          {targets.map((locale) => (
            <option key={locale} value={locale}>
              {LOCALE_NAMES[locale]}
            </option>
          ))}
        </select>
      </label>
      <Button buttonStyle="secondary" size="small" onClick={translate} disabled={busy}>
        {adminText(t, busy ? 'aiTranslating' : 'aiTranslateWithAi')}
      </Button>
      <p role="status">
        {notice?.text}{' '}
        {notice?.draftId !== undefined && <a href={adminDraftUrl(notice.draftId)}>{adminText(t, 'aiReviewDraft')}</a>}
      </p>
    </div>
  )
}
