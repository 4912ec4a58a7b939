import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { nestedDocsPlugin } from '@payloadcms/plugin-nested-docs'
import { redirectsPlugin } from '@payloadcms/plugin-redirects'
import { searchPlugin } from '@payloadcms/plugin-search'
import { seoPlugin } from '@payloadcms/plugin-seo'
import { lexicalEditor } from '@payloadcms/richtext-lexical'
import { buildConfig } from 'payload'

import { anyone, isAdmin, isStaff, userIsStaff } from '@/access'
import { AccessibilityReports } from '@/collections/AccessibilityReports/config'
import { ACCESSIBILITY_DIGEST_MAIL, composeAccessibilityDigest } from '@/feedback/entry/accessibilityDigest'
import { AiDrafts } from '@/collections/AiDrafts/config'
import { AlertNotices, HeldAlertNotices } from '@/collections/AlertNotices/config'
import { AlertSubscriptions } from '@/collections/AlertSubscriptions/config'
import { ALERT_SIGN_UP_MAIL, composeAlertSignUp, deleteExpiredSubscriptions } from '@/notices/entry/subscriptions'
import { fanOutAlertNoticesTask, noticeFreshAlerts, sendAlertDigestTask } from '@/notices/entry/notices'
import { copyAppliedKeywords, searchKeywordsField } from '@/ai/entry/drafts/searchKeywords'
import { Categories } from '@/collections/Categories/config'
import { MapLayers } from '@/collections/MapLayers/config'
import { Media } from '@/collections/Media/config'
import { Pages } from '@/collections/Pages/config'
import { Posts } from '@/collections/Posts/config'
import { Questions } from '@/collections/Questions/config'
import { draftCitizenAnswerTask } from '@/ai/entry/drafts/questionAnswer'
import { Users } from '@/collections/Users/config'
import { composePasswordReset, PASSWORD_RESET_MAIL } from '@/accounts/entry/passwordReset'
import { databaseAdapter, keepSqliteStatistics, yieldBeforeSqliteStatements } from '@/db'
import { emailSettings, MAIL_QUEUE, queuedEmailAdapter, sendMailTask } from '@/email/entry'
import { startSweeps } from '@/email/entry/sweeps'
import { env } from '@/env'
import { AccessibilityStatement } from '@/globals/AccessibilityStatement/config'
import { Footer } from '@/globals/Footer/config'
import { Header } from '@/globals/Header/config'
import { SiteSettings } from '@/globals/SiteSettings/config'
import { gatewayKeyWarning } from '@/ai/entry/settings'
import { adminI18n } from '@/i18n/admin'
import { DEFAULT_LOCALE, LOCALE_NAMES, LOCALES } from '@/i18n/locales'
import { addRequestIdToError, quietRefusals, REFUSAL_LOGGING_LEVELS } from '@/hooks/refusal'
import { currentRequestId } from '@/server/requestContext'
import { listenForFreshAlerts } from '@/layers/entry/services'
import { guardQueryInput } from '@/hooks/guardQueryInput'
import { malformedRequestIs400 } from '@/hooks/malformedRequest'
import { sharpWithPixelLimit } from '@/collections/Media/imageUpload'

const settings = env()
// The production server runs the jobs (and their sweeps); tests and scripts run jobs themselves.
const runsJobs = () => process.env.NODE_ENV === 'production' && Boolean(process.env.NEXT_RUNTIME)
const mail = emailSettings(settings)
// Mails the queue makes when it sends them: the requests behind them answer alike whatever they name.
const deferredMails = { [PASSWORD_RESET_MAIL]: composePasswordReset, [ALERT_SIGN_UP_MAIL]: composeAlertSignUp, [ACCESSIBILITY_DIGEST_MAIL]: composeAccessibilityDigest }
// import.meta.dirname is undefined inside Next's webpack bundles; import.meta.url is not.
const rootDir = path.dirname(fileURLToPath(import.meta.url))

export default buildConfig({
  serverURL: settings.PUBLIC_SERVER_URL,
  secret: settings.APP_SECRET,
  db: await databaseAdapter(settings.DATABASE_URI),
  editor: lexicalEditor(),
  // Without an SMTP server email is off: Payload's console adapter, and the admin says so.
  email: mail ? queuedEmailAdapter(mail) : undefined,
  // Decoded pixels capped below sharp's default 268 Mpx (the Media hook refuses larger images before this).
  sharp: sharpWithPixelLimit,
  // Every line logged while a request is handled carries its id (src/server/requestContext.ts).
  logger: { options: { level: settings.LOG_LEVEL, mixin: () => ({ requestId: currentRequestId() }), hooks: { logMethod: quietRefusals } } },
  loggingLevels: REFUSAL_LOGGING_LEVELS,
  hooks: { afterError: [addRequestIdToError] },
  // The admin speaks English, Spanish and Portuguese (the editor's choice, else the browser's).
  i18n: adminI18n,
  // Citizens read the content in their language: fields marked `localized` are stored per locale;
  // a field left empty in a locale shows the default locale's text (fallback). Slugs, layouts'
  // structure, layers' data settings and numbers are shared by every locale.
  localization: {
    locales: LOCALES.map((code) => ({ code, label: LOCALE_NAMES[code] })),
    defaultLocale: DEFAULT_LOCALE,
    fallback: true,
  },
  collections: [Pages, Posts, Media, Categories, MapLayers, Users, AiDrafts, Questions, AccessibilityReports, AlertSubscriptions, AlertNotices, HeldAlertNotices],
  globals: [Header, Footer, SiteSettings, AccessibilityStatement],
  admin: {
    user: Users.slug,
    // The admin would fetch avatars from gravatar.com: keep it offline-friendly.
    avatar: 'default',
    importMap: { baseDir: path.join(rootDir, 'src') },
    meta: { titleSuffix: ' · City Dashboard' },
    // The sign-in page and the navigation show the city's name and logo, not Payload's.
    components: {
      graphics: {
        Logo: '@/globals/SiteSettings/components/AdminBrand#AdminLogo',
        Icon: '@/globals/SiteSettings/components/AdminBrand#AdminIcon',
      },
      // Email off: the dashboard and the navigation say so; "Forgot password?" explains instead of sending nothing.
      ...(mail
        ? {}
        : {
            beforeDashboard: ['@/email/admin/EmailOff#EmailOffNotice'],
            afterNavLinks: ['@/email/admin/EmailOff#EmailOffNavNote'],
            afterLogin: ['@/email/admin/EmailOff#LoginEmailOffNote'],
            views: { forgot: { Component: '@/email/admin/EmailOff#ForgotPasswordEmailOffView', path: '/forgot' } },
          }),
    },
    autoLogin:
      settings.DEV_AUTO_LOGIN_EMAIL && settings.NODE_ENV !== 'production'
        ? { email: settings.DEV_AUTO_LOGIN_EMAIL, prefillOnly: false }
        : false,
    livePreview: {
      breakpoints: [
        { label: 'Mobile', name: 'mobile', width: 375, height: 667 },
        { label: 'Tablet', name: 'tablet', width: 768, height: 1024 },
        { label: 'Desktop', name: 'desktop', width: 1440, height: 900 },
      ],
    },
  },
  onInit: (payload) => {
    yieldBeforeSqliteStatements(payload)
    const warning = gatewayKeyWarning(settings)
    if (warning) payload.logger.warn(warning)
    payload.logger.info(
      mail
        ? `Email on: SMTP ${mail.transport.host}:${mail.transport.port}, from ${mail.from.address} (mails leave through the '${MAIL_QUEUE}' jobs queue)`
        : 'Email is off (no SMTP_URL or SMTP_HOST): password resets and answer notices by email are unavailable; Payload\'s "written to console" notice means nothing is sent',
    )
    // Every fresh layer load (polled or pushed) hands its alerts to the notices, in every process.
    listenForFreshAlerts((alerts) => noticeFreshAlerts(payload, alerts))
    const serving = process.env.NEXT_PHASE !== 'phase-production-build'
    if (serving) keepSqliteStatistics(payload)
    // Where the jobs run, so do the sweeps that hand stranded jobs back and erase expired sign-ups to notices.
    if (runsJobs() && serving) startSweeps(payload, [deleteExpiredSubscriptions])
  },
  // Uploads stop at MAX_UPLOAD_BYTES per file (the route also caps the whole body while it streams).
  upload: { limits: { fileSize: settings.MAX_UPLOAD_BYTES }, requestSizeLimit: settings.MAX_UPLOAD_BYTES + 64 * 1024 },
  cors: [settings.PUBLIC_SERVER_URL],
  csrf: [settings.PUBLIC_SERVER_URL],
  typescript: { outputFile: path.join(rootDir, 'src/payload-types.ts') },
  graphQL: { disablePlaygroundInProduction: true },
  jobs: {
    access: {
      run: ({ req }) => userIsStaff(req.user),
      queue: ({ req }) => userIsStaff(req.user),
      cancel: ({ req }) => userIsStaff(req.user),
    },
    // The mail task is registered with email off too: the jobs table's schema does not depend on it.
    tasks: [draftCitizenAnswerTask, sendMailTask(mail, deferredMails), fanOutAlertNoticesTask, sendAlertDigestTask],
    // Runs scheduled publishing and retries of answer drafts; tests and scripts run without the cron.
    // Mail waits at most a few seconds (the cron does not overlap itself: a slow server delays mail only).
    autoRun: [
      { cron: '* * * * *', queue: 'default', limit: 20 },
      // MAIL_QUEUE_IN_SERVER=false when a worker (`payload jobs:run --queue email`) sends the mail instead.
      ...(mail && settings.MAIL_QUEUE_IN_SERVER ? [{ cron: `*/${settings.MAIL_QUEUE_SECONDS} * * * * *`, queue: MAIL_QUEUE, limit: 50 }] : []),
    ],
    shouldAutoRun: runsJobs,
  },
  plugins: [
    seoPlugin({
      generateTitle: ({ doc }) => (doc?.title ? `${doc.title} · City Dashboard` : 'City Dashboard'),
      generateURL: ({ doc, collectionSlug }) => {
        const base = settings.PUBLIC_SERVER_URL
        if (!doc?.slug) return base
        return collectionSlug === 'posts' ? `${base}/posts/${doc.slug}` : `${base}/${doc.slug === 'home' ? '' : doc.slug}`
      },
    }),
    searchPlugin({
      collections: ['pages', 'posts'],
      defaultPriorities: { pages: 10, posts: 20 },
      beforeSync: copyAppliedKeywords,
      searchOverrides: {
        fields: ({ defaultFields }) => [...defaultFields, searchKeywordsField],
        access: { read: anyone, create: isAdmin, update: isAdmin, delete: isAdmin },
        admin: { group: 'Site' },
      },
    }),
    redirectsPlugin({
      collections: ['pages', 'posts'],
      overrides: {
        access: { read: anyone, create: isStaff, update: isStaff, delete: isStaff },
        admin: { group: 'Site' },
      },
    }),
    nestedDocsPlugin({
      collections: ['categories'],
      generateURL: (docs) => docs.reduce((url, doc) => `${url}/${doc.slug}`, ''),
    }),
    // Last, so the plugins' collections (search, redirects) get it too.
    (config) => ({
      ...config,
      collections: config.collections?.map((collection) => ({
        ...collection,
        hooks: { ...collection.hooks, beforeOperation: [guardQueryInput, ...(collection.hooks?.beforeOperation ?? [])], afterError: [malformedRequestIs400, ...(collection.hooks?.afterError ?? [])] },
      })),
    }),
  ],
})
