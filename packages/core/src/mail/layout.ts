import { html, type SafeHtml } from './html.ts'

/**
 * Wraps an e-mail body in a minimal, client-safe HTML document. Long unbroken text (the status page's address) wraps
 * inside the card rather than running out of it: overflow-wrap for current clients, word-break for older ones.
 */
export function mailDocument(title: string, body: SafeHtml, footer: string): string {
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title></head>
<body style="margin:0;padding:16px;background:#f4f4f4;font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;line-height:1.5">
<div style="max-width:640px;margin:0 auto;background:#ffffff;padding:24px;border-radius:4px;overflow-wrap:anywhere;word-break:break-word">
<h1 style="font-size:20px;margin:0 0 16px">${title}</h1>
${body}
<p style="margin-top:24px;font-size:12px;color:#555555">${footer}</p>
</div>
</body>
</html>
`.value
}

/** Where the body of a `mailDocument` begins: right after its title. */
const TITLE_END = '</h1>\n'

/** A document `mailDocument` rendered, with a section put first in its body, under its title. */
export function withOpeningSection(document: string, section: SafeHtml): string {
  const at = document.indexOf(TITLE_END)
  if (at < 0) throw new Error('Not an e-mail document made by mailDocument')
  const start = at + TITLE_END.length
  return `${document.slice(0, start)}${section.value}\n${document.slice(start)}`
}

/** A two-column table of labels and values. */
export function detailsTable(rows: ReadonlyArray<readonly [string, string | SafeHtml]>): SafeHtml {
  return html`<table style="border-collapse:collapse;width:100%;margin:8px 0 16px" role="presentation">${rows.map(
    ([label, value]) =>
      html`<tr><th style="text-align:left;vertical-align:top;padding:4px 12px 4px 0;white-space:nowrap">${label}</th><td style="padding:4px 0">${value}</td></tr>`,
  )}</table>`
}

/** Label/value lines for the plain-text part. */
export function detailsText(rows: ReadonlyArray<readonly [string, string]>): string {
  return rows.map(([label, value]) => `${label}: ${value.includes('\n') ? `\n  ${value.split('\n').join('\n  ')}` : value}`).join('\n')
}
