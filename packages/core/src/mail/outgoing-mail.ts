/** An e-mail as stored in the outbox: recipients are validated addresses, every other header is fixed text. */
export interface OutgoingMail {
  /** The sender when it is not MAIL_FROM: a reply from the back office comes from the organiser's address. */
  from?: string
  to: string[]
  replyTo?: string
  subject: string
  text: string
  html: string
  attachments?: MailAttachment[]
}

export interface MailAttachment {
  filename: string
  contentType: string
  /** Text as is, or binary content (a PDF) in base64 when `encoding` says so. */
  content: string
  encoding?: 'base64'
  /** The id of a stored tax invoice whose PDF becomes the content when the message is sent. */
  invoiceId?: string
  /** The id of a stored credit note whose PDF becomes the content when the message is sent. */
  creditNoteId?: string
  /** A stored certificate of attendance whose PDF (with the QR code of `url`) becomes the content when the message is sent. */
  certificate?: { number: string; url: string }
  /** Text whose QR code (PNG) becomes the content when the message is rendered: a delegate's pass code. */
  qrCodeOf?: string
  /** Set for an image the HTML shows inline (`<img src="cid:…">`) rather than as a file to open. */
  contentId?: string
}
