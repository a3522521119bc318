import { html } from './html.ts'
import { mailDocument } from './layout.ts'
import type { OutgoingMail } from './outgoing-mail.ts'

export interface StaffLinkMailContext {
  to: string
  name: string
  siteName: string
  /** The one-time link the e-mail is about, built by the staff package from SITE_URL. */
  link: string
  /** How long the link works, in words ("1 hour"). */
  validFor: string
}

function linkMail(context: StaffLinkMailContext, subject: string, intro: string, action: string): OutgoingMail {
  const closing = `The link works for ${context.validFor}. If you did not expect this e-mail, ignore it.`
  return {
    to: [context.to],
    subject,
    text: [`Dear ${context.name},`, intro, `${action}: ${context.link}`, closing].join('\n\n') + '\n',
    html: mailDocument(
      subject,
      html`<p>Dear ${context.name},</p><p>${intro}</p><p><a href="${context.link}">${action}</a></p><p>${closing}</p>`,
      context.siteName,
    ),
  }
}

/** The invitation to a new staff account, with the link that sets its first password. */
export function staffInvitationMail(context: StaffLinkMailContext): OutgoingMail {
  return linkMail(
    context,
    `Your ${context.siteName} back-office account`,
    `You have been given an account on the ${context.siteName} back office. Choose your password to start using it.`,
    'Choose your password',
  )
}

/** The password reset link a staff member asked for. */
export function staffPasswordResetMail(context: StaffLinkMailContext): OutgoingMail {
  return linkMail(
    context,
    `Reset your ${context.siteName} back-office password`,
    'Someone (we hope you) asked to reset the password of your back-office account.',
    'Choose a new password',
  )
}

export interface StaffSignInFailuresMailContext {
  to: string
  name: string
  siteName: string
  /** Failed sign-ins on the account since its last successful one. */
  failures: number
}

/** Tells an owner that someone keeps failing to sign in to their account. */
export function staffSignInFailuresMail(context: StaffSignInFailuresMailContext): OutgoingMail {
  return noticeMail(context, `Failed sign-ins to your ${context.siteName} back-office account`, [
    `There have been ${context.failures} failed sign-ins to your back-office account since it was last used.`,
    'If that was not you, someone may be guessing your password. Each further failure makes the next try wait longer; your own sign-in with your password and two-factor code still works from your usual connection.',
    'If you think your password is known, change it on the back office’s "Your account" page.',
  ])
}

/** A moment as the staff notices state it: "29 November 2026 at 10:15" in South African time. */
const noticeTimeFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Johannesburg', dateStyle: 'long', timeStyle: 'short' })

function noticeMail(context: { to: string; name: string; siteName: string }, subject: string, paragraphs: string[]): OutgoingMail {
  return {
    to: [context.to],
    subject,
    text: [`Dear ${context.name},`, ...paragraphs].join('\n\n') + '\n',
    html: mailDocument(subject, html`<p>Dear ${context.name},</p>${paragraphs.map((paragraph) => html`<p>${paragraph}</p>`)}`, context.siteName),
  }
}

export interface StaffCodeFailuresMailContext {
  to: string
  name: string
  siteName: string
  /** Wrong two-factor codes typed after the right password since the account's last sign-in. */
  failures: number
  /** The latest one: when, and from which address. */
  at: Date
  ipAddress: string
}

/** Tells a member that someone who typed their password keeps failing at the two-factor step. */
export function staffCodeFailuresMail(context: StaffCodeFailuresMailContext): OutgoingMail {
  return noticeMail(context, `Wrong two-factor codes on your ${context.siteName} back-office account`, [
    `Your password was typed correctly, followed by a wrong two-factor code, ${context.failures} times since your last sign-in; the latest on ${noticeTimeFormat.format(context.at)} (South African time) from the address ${context.ipAddress}.`,
    'If that was not you, someone knows your password: change it on the back office’s "Your account" page now. Each wrong code ends that sign-in; your own sign-in with your password and code still works.',
  ])
}

export interface StaffNewDeviceMailContext {
  to: string
  name: string
  siteName: string
  at: Date
  ipAddress: string
}

/** Tells a member of a sign-in from a browser their account had not been used from before. */
export function staffNewDeviceMail(context: StaffNewDeviceMailContext): OutgoingMail {
  return noticeMail(context, `New sign-in to your ${context.siteName} back-office account`, [
    `Your back-office account was signed in to from a browser it had not been used from before, on ${noticeTimeFormat.format(context.at)} (South African time), from the address ${context.ipAddress}.`,
    'If that was you, there is nothing to do. If not, change your password on the back office’s "Your account" page and end the sessions you do not know there.',
  ])
}
