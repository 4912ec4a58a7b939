/**
 * What the admin shows while email is off (no SMTP server configured): payload.config.ts adds these
 * components only then. The features that would mail say so instead of failing silently. Payload
 * hands each of them the editor's `i18n`: they speak the editor's language.
 */

import { type AdminTranslate, adminText } from '@/i18n/adminText'

type WithI18n = { i18n: { t: AdminTranslate } }
type LoginProps = WithI18n & { payload: { config: { routes: { admin: string }; admin: { routes: { forgot: string } } } } }
type ForgotViewProps = WithI18n & { initPageResult: { req: { payload: { config: { routes: { admin: string } } } } } }

const box = {
  border: '1px solid var(--theme-warning-500, #b58a00)',
  background: 'var(--theme-warning-50, #fff8e1)',
  color: 'var(--theme-text, #1a1a1a)',
  borderRadius: 4,
  padding: '0.75rem 1rem',
  marginBottom: '1.5rem',
} as const

/** Above the dashboard. */
export function EmailOffNotice({ i18n }: WithI18n) {
  return (
    <section role="status" aria-labelledby="email-off-heading" style={box}>
      <h2 id="email-off-heading" style={{ margin: '0 0 0.25rem', fontSize: '1.1rem' }}>
        {adminText(i18n.t, 'emailOff')}
      </h2>
      <p style={{ margin: 0 }}>{adminText(i18n.t, 'emailOffDashboard')}</p>
    </section>
  )
}

/** Under the navigation's links. */
export function EmailOffNavNote({ i18n }: WithI18n) {
  return (
    <p title={adminText(i18n.t, 'emailOffNavTitle')} style={{ margin: '1rem 0 0', fontSize: '0.85rem', color: 'var(--theme-warning-700, #7a5c00)' }}>
      ✉︎ {adminText(i18n.t, 'emailOff')}
    </p>
  )
}

/** Under the sign-in form: hides Payload's "Forgot password?" link, which would lead nowhere, and says why. */
export function LoginEmailOffNote({ payload, i18n }: LoginProps) {
  const forgotHref = `${payload.config.routes.admin}${payload.config.admin.routes.forgot}`
  return (
    <>
      <style>{`a[href="${forgotHref}"] { display: none !important; }`}</style>
      <p style={{ fontSize: '0.9rem' }}>{adminText(i18n.t, 'emailOffLogin')}</p>
    </>
  )
}

/** Replaces the forgot-password view: reached by a bookmark or a typed address, it explains instead of failing. */
export function ForgotPasswordEmailOffView({ initPageResult, i18n }: ForgotViewProps) {
  const adminRoute = initPageResult.req.payload.config.routes.admin
  return (
    <div>
      <h1 style={{ fontSize: '1.6rem' }}>{adminText(i18n.t, 'emailOffForgotHeading')}</h1>
      <p>{adminText(i18n.t, 'emailOffForgot')}</p>
      <p>
        {/* Not next/link: a client module the admin's layout shares with the citizens' pages made Next send them the admin's chunks. */}
        <a href={`${adminRoute}/login`}>{adminText(i18n.t, 'backToLogin')}</a>
      </p>
    </div>
  )
}
