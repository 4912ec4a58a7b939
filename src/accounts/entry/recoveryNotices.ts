import type { CollectionAfterChangeHook } from 'payload'

import { currentEmailSettings } from '@/email/entry'
import { queueMail } from '@/email/entry/queue'
import { DEFAULT_LOCALE, type Locale } from '@/i18n/locales'
import type { User } from '@/payload-types'

import { sendVerificationLink } from './verification'

/** Addresses as accounts compare them: Payload stores them trimmed and in lower case. */
export const sameAddress = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase()

/** Set on the request by guardPasswordChange when a new password passed its checks. */
export const PASSWORD_CHANGED = 'passwordChanged'

type NoticeText = {
  emailChangedSubject: (siteName: string) => string
  emailChanged: (oldEmail: string, newEmail: string, siteName: string) => string
  passwordChangedSubject: (siteName: string) => string
  passwordChanged: (email: string, siteName: string) => string
  notYou: string
  signUpTakenSubject: (siteName: string) => string
  signUpTaken: (email: string, siteName: string) => string
}

const TEXT: Record<Locale, NoticeText> = {
  en: {
    emailChangedSubject: (siteName) => `The email address of your account on ${siteName} was changed`,
    emailChanged: (oldEmail, newEmail, siteName) =>
      `The account ${oldEmail} on ${siteName} now has the address ${newEmail}: password resets and notices go there from now on.`,
    passwordChangedSubject: (siteName) => `The password of your account on ${siteName} was changed`,
    passwordChanged: (email, siteName) => `The password of the account ${email} on ${siteName} was changed.`,
    notYou: 'If you did not do this, tell an administrator of the site at once: someone else may be using your account.',
    signUpTakenSubject: (siteName) => `Someone tried to sign up on ${siteName} with your address`,
    signUpTaken: (email, siteName) =>
      `Someone tried to create an account on ${siteName} with ${email}, which already has one. Nothing changed. If it was you, sign in, or ask for a password reset on the sign-in page. If it was not, you can ignore this mail.`,
  },
  es: {
    emailChangedSubject: (siteName) => `Se ha cambiado la dirección de correo de su cuenta en ${siteName}`,
    emailChanged: (oldEmail, newEmail, siteName) =>
      `La cuenta ${oldEmail} en ${siteName} tiene ahora la dirección ${newEmail}: a partir de ahora los restablecimientos de contraseña y los avisos van allí.`,
    passwordChangedSubject: (siteName) => `Se ha cambiado la contraseña de su cuenta en ${siteName}`,
    passwordChanged: (email, siteName) => `Se ha cambiado la contraseña de la cuenta ${email} en ${siteName}.`,
    notYou: 'Si no ha sido usted, avise de inmediato a un administrador del sitio: otra persona puede estar usando su cuenta.',
    signUpTakenSubject: (siteName) => `Alguien ha intentado registrarse en ${siteName} con su dirección`,
    signUpTaken: (email, siteName) =>
      `Alguien ha intentado crear una cuenta en ${siteName} con ${email}, que ya tiene una. No ha cambiado nada. Si ha sido usted, inicie sesión o pida restablecer la contraseña en la página de inicio de sesión. Si no, puede ignorar este correo.`,
  },
  pt: {
    emailChangedSubject: (siteName) => `O endereço de correio da sua conta em ${siteName} foi alterado`,
    emailChanged: (oldEmail, newEmail, siteName) =>
      `A conta ${oldEmail} em ${siteName} tem agora o endereço ${newEmail}: a partir de agora as reposições de palavra-passe e os avisos vão para lá.`,
    passwordChangedSubject: (siteName) => `A palavra-passe da sua conta em ${siteName} foi alterada`,
    passwordChanged: (email, siteName) => `A palavra-passe da conta ${email} em ${siteName} foi alterada.`,
    notYou: 'Se não foi você, avise de imediato um administrador do site: outra pessoa pode estar a usar a sua conta.',
    signUpTakenSubject: (siteName) => `Alguém tentou registar-se em ${siteName} com o seu endereço`,
    signUpTaken: (email, siteName) =>
      `Alguém tentou criar uma conta em ${siteName} com ${email}, que já tem uma. Nada mudou. Se foi você, inicie sessão ou peça a reposição da palavra-passe na página de início de sessão. Se não foi, pode ignorar este correio.`,
  },
}

/**
 * After an account's recovery factor (its email) or its password changed through REST or GraphQL
 * (ASVS 2.2.3, 2.5.x): the address it had is told, so a takeover cannot go unseen, and a new
 * address the owner set is unverified until the link mailed to it is used (Payload ignores the
 * sessions of an unverified account meanwhile). An address an admin sets for someone else stays as
 * the admin marks it. Trusted server code (Local API) is not noticed; with email off nothing is sent.
 */
export const noticeRecoveryChanges: CollectionAfterChangeHook<User> = async ({ doc, operation, previousDoc, req }) => {
  if (operation !== 'update' || req.payloadAPI === 'local' || !previousDoc) return doc
  const settings = currentEmailSettings()
  if (!settings) return doc
  const text = TEXT[DEFAULT_LOCALE]
  const emailChanged = !sameAddress(doc.email, previousDoc.email)
  const passwordChanged = req.context[PASSWORD_CHANGED] === true
  if (emailChanged) {
    await queueMail(
      req.payload,
      settings,
      (siteName) => ({
        to: previousDoc.email,
        subject: text.emailChangedSubject(siteName),
        blocks: [text.emailChanged(previousDoc.email, doc.email, siteName), text.notYou],
      }),
      req,
    )
    const ownAccount = req.user?.collection === 'users' && String(req.user.id) === String(doc.id)
    if (ownAccount) {
      await sendVerificationLink(req.payload, { id: doc.id, email: doc.email }, req, new Date(), 'address')
      return { ...doc, _verified: false }
    }
  } else if (passwordChanged) {
    await queueMail(
      req.payload,
      settings,
      (siteName) => ({ to: doc.email, subject: text.passwordChangedSubject(siteName), blocks: [text.passwordChanged(doc.email, siteName), text.notYou] }),
      req,
    )
  }
  return doc
}

/** The mail to the owner of an address someone tried to sign up with (signUp.ts): the try is seen, and nothing is said to the one who tried. */
export function takenAddressNotice(email: string, siteName: string) {
  const text = TEXT[DEFAULT_LOCALE]
  return { to: email, subject: text.signUpTakenSubject(siteName), blocks: [text.signUpTaken(email, siteName)] }
}
