import type { Locale } from '@/i18n/locales'

/** The words of the account verification mail, in each of the site's languages. */

/** What the link proves: the address of a new account, or the new address of an existing one. */
export type VerificationPurpose = 'account' | 'address'

type VerificationMailText = {
  subject: (siteName: string) => string
  intro: Record<VerificationPurpose, (email: string, siteName: string) => string>
  confirm: string
  expiry: (hours: number) => string
}

const TEXT: Record<Locale, VerificationMailText> = {
  en: {
    subject: (siteName) => `Confirm your account on ${siteName}`,
    intro: {
      account: (email, siteName) => `An account for ${email} was created on ${siteName}. Confirm that this address is yours to be able to sign in.`,
      address: (email, siteName) => `${email} was made the address of an account on ${siteName}. Confirm that this address is yours to be able to sign in again.`,
    },
    confirm: 'Confirm my address',
    expiry: (hours) => `The link works once, within ${hours} hours. If you did not expect this account, ignore this mail: it cannot be used without the link.`,
  },
  es: {
    subject: (siteName) => `Confirme su cuenta en ${siteName}`,
    intro: {
      account: (email, siteName) => `Se ha creado una cuenta para ${email} en ${siteName}. Confirme que esta dirección es suya para poder iniciar sesión.`,
      address: (email, siteName) => `${email} es ahora la dirección de una cuenta en ${siteName}. Confirme que esta dirección es suya para poder volver a iniciar sesión.`,
    },
    confirm: 'Confirmar mi dirección',
    expiry: (hours) => `El enlace funciona una sola vez, durante ${hours} horas. Si no esperaba esta cuenta, ignore este correo: no se puede usar sin el enlace.`,
  },
  pt: {
    subject: (siteName) => `Confirme a sua conta em ${siteName}`,
    intro: {
      account: (email, siteName) => `Foi criada uma conta para ${email} em ${siteName}. Confirme que este endereço é seu para poder iniciar sessão.`,
      address: (email, siteName) => `${email} é agora o endereço de uma conta em ${siteName}. Confirme que este endereço é seu para poder voltar a iniciar sessão.`,
    },
    confirm: 'Confirmar o meu endereço',
    expiry: (hours) => `A ligação funciona uma só vez, durante ${hours} horas. Se não esperava esta conta, ignore este correio: não pode ser usada sem a ligação.`,
  },
}

export const verificationMailText = (locale: Locale): VerificationMailText => TEXT[locale]
