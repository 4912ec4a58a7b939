/**
 * What the admin shows while email is off (no SMTP server configured): payload.config.ts adds these
 * components only then. The features that would mail say so instead of failing silently.
 */

const TEXT = {
  heading: 'Email is off',
  dashboard:
    'No mail server is configured (SMTP_URL or SMTP_HOST, and EMAIL_FROM), so this site sends no email: password resets by email, notices to citizens whose questions are answered and other mails are unavailable, and their forms are hidden. New accounts cannot verify their address by email, so they can sign in at once. An administrator can set a new password for any account under Users.',
  nav: 'Email is off',
  navTitle: 'No mail server is configured: password resets and notices by email are unavailable.',
  login: 'Forgot your password? Email is off on this site: ask an administrator to set a new one for you.',
  forgotHeading: 'Password reset by email is unavailable',
  forgot: 'This site has no mail server configured, so it cannot send a reset link. Ask an administrator to set a new password for your account.',
  backToLogin: 'Back to sign-in',
}

const box = {
  border: '1px solid var(--theme-warning-500, #b58a00)',
  background: 'var(--theme-warning-50, #fff8e1)',
  color: 'var(--theme-text, #1a1a1a)',
  borderRadius: 4,
  padding: '0.75rem 1rem',
  marginBottom: '1.5rem',
} as const

/** Above the dashboard. */
export function EmailOffNotice() {
  return (
    <section role="status" aria-labelledby="email-off-heading" style={box}>
      <h2 id="email-off-heading" style={{ margin: '0 0 0.25rem', fontSize: '1.1rem' }}>
        {TEXT.heading}
      </h2>
      <p style={{ margin: 0 }}>{TEXT.dashboard}</p>
    </section>
  )
}

/** Under the navigation's links. */
export function EmailOffNavNote() {
  return (
    <p title={TEXT.navTitle} style={{ margin: '1rem 0 0', fontSize: '0.85rem', color: 'var(--theme-warning-700, #7a5c00)' }}>
      ✉︎ {TEXT.nav}
    </p>
  )
}

/** Under the sign-in form: hides Payload's "Forgot password?" link, which would lead nowhere, and says why. */
export function LoginEmailOffNote({ payload }: { payload: { config: { routes: { admin: string }; admin: { routes: { forgot: string } } } } }) {
  const forgotHref = `${payload.config.routes.admin}${payload.config.admin.routes.forgot}`
  return (
    <>
      <style>{`a[href="${forgotHref}"] { display: none !important; }`}</style>
      <p style={{ fontSize: '0.9rem' }}>{TEXT.login}</p>
    </>
  )
}

/** Replaces the forgot-password view: reached by a bookmark or a typed address, it explains instead of failing. */
export function ForgotPasswordEmailOffView({ initPageResult }: { initPageResult: { req: { payload: { config: { routes: { admin: string } } } } } }) {
  const adminRoute = initPageResult.req.payload.config.routes.admin
  return (
    <div>
      <h1 style={{ fontSize: '1.6rem' }}>{TEXT.forgotHeading}</h1>
      <p>{TEXT.forgot}</p>
      <p>
        {/* Not next/link: a client module the admin's layout shares with the citizens' pages made Next send them the admin's chunks. */}
        <a href={`${adminRoute}/login`}>{TEXT.backToLogin}</a>
      </p>
    </div>
  )
}
