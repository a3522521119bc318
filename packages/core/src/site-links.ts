/** What names a registration in its private links: its reference and the secret only its registrant holds. */
export interface RegistrationKey {
  reference: string
  secret: string
}

/** Where the payment provider sends the visitor back to after a checkout. */
export type PaymentReturnOutcome = 'success' | 'cancel' | 'failure'

/**
 * The site's pages that core, payments and staff point to from e-mails, from the card provider and from the back
 * office's sign-in guard, each as an absolute URL. The site implements it from its public address next to its routes
 * (apps/site/app/lib/site-links.ts) and passes it in, so no package here knows a path of the site.
 */
export interface SiteLinks {
  /** The registrant's private status page. */
  registrationStatus(registration: RegistrationKey): string
  /** The card payment page of a registration paid by card. */
  registrationPayment(registration: RegistrationKey): string
  /** Where the card provider sends the visitor back to. */
  paymentReturn(registration: RegistrationKey, outcome: PaymentReturnOutcome): string
  /** The sandbox's own checkout page, standing in for the provider's. */
  sandboxCheckout(checkoutId: string): string
  /** The privacy notice. */
  privacyNotice(): string
  /** The back office's sign-in page, which leads on to `redirectTo` (a path of the site). */
  staffSignIn(redirectTo: string): string
  /** Where a staff member sets up two-factor sign-in. */
  staffTwoFactorSetup(): string
  /** Where an invited or resetting staff member sets a password with the token of their e-mail. */
  staffSetPassword(token: string): string
  /** The base under which the site mounts the staff sign-in endpoints (better-auth's handler). */
  staffAuth(): string
  /** A delegate's private pass page, by its token. */
  delegatePass(token: string): string
  /** The public verification page of a certificate of attendance, by its number. */
  certificate(number: string): string
  /** A delegate's personal join link, by their pass's token: it records online attendance and sends them on to the meeting. */
  delegateJoin(token: string): string
}
