import type { PaymentReturnOutcome, RegistrationKey, SiteLinks } from '@events/core'

// Imported by the server, the routes and the command-line scripts (which load the TypeScript sources as they are),
// so it imports types only.

/** The site's own pages that links lead to, as paths; app/routes.ts and server/payments.ts answer them. */
export const sitePaths = {
  registrationStatus: ({ reference, secret }: RegistrationKey) => `/registrations/${reference}/${secret}`,
  registrationPayment: (registration: RegistrationKey) => `${sitePaths.registrationStatus(registration)}/pay`,
  paymentReturn: (registration: RegistrationKey, outcome: PaymentReturnOutcome) => `${sitePaths.registrationStatus(registration)}/payment/${outcome}`,
  invoice: (registration: RegistrationKey) => `${sitePaths.registrationStatus(registration)}/invoice.pdf`,
  issuedInvoice: (registration: RegistrationKey, number: string) => `${sitePaths.registrationStatus(registration)}/invoices/${number}.pdf`,
  creditNote: (registration: RegistrationKey, number: string) => `${sitePaths.registrationStatus(registration)}/credit-notes/${number}.pdf`,
  sandboxCheckout: (checkoutId: string) => `/payments/sandbox/${checkoutId}`,
  privacyNotice: () => '/privacy',
  staffSignIn: (redirectTo: string) => `/admin/sign-in?redirectTo=${encodeURIComponent(redirectTo)}`,
  staffTwoFactorSetup: () => '/admin/two-factor',
  staffSetPassword: (token: string) => `/admin/set-password?token=${encodeURIComponent(token)}`,
  /** better-auth's own endpoints (server/admin.ts mounts them). */
  staffAuth: () => '/admin/auth',
  delegatePass: (token: string) => `/pass/${token}`,
  delegateJoin: (token: string) => `/join/${token}`,
  certificate: (number: string) => `/certificates/${number}`,
  certificatePdf: (number: string) => `/certificates/${number}/certificate.pdf`,
}

/** The site's pages as absolute URLs under its public address (SITE_URL), for e-mails and the card provider. */
export function createSiteLinks(siteUrl: string): SiteLinks {
  const origin = siteUrl.replace(/\/+$/, '')
  return {
    registrationStatus: (registration) => origin + sitePaths.registrationStatus(registration),
    registrationPayment: (registration) => origin + sitePaths.registrationPayment(registration),
    paymentReturn: (registration, outcome) => origin + sitePaths.paymentReturn(registration, outcome),
    sandboxCheckout: (checkoutId) => origin + sitePaths.sandboxCheckout(checkoutId),
    privacyNotice: () => origin + sitePaths.privacyNotice(),
    staffSignIn: (redirectTo) => origin + sitePaths.staffSignIn(redirectTo),
    staffTwoFactorSetup: () => origin + sitePaths.staffTwoFactorSetup(),
    staffSetPassword: (token) => origin + sitePaths.staffSetPassword(token),
    staffAuth: () => origin + sitePaths.staffAuth(),
    delegatePass: (token) => origin + sitePaths.delegatePass(token),
    certificate: (number) => origin + sitePaths.certificate(number),
    delegateJoin: (token) => origin + sitePaths.delegateJoin(token),
  }
}
