import PDFDocument from 'pdfkit'
import { extractText, getDocumentProxy } from 'unpdf'
import { describe, expect, it } from 'vitest'
import { documentBytes, registerDejaVuFonts } from './fonts.ts'

async function renderBold(text: string): Promise<string> {
  const doc = new PDFDocument()
  registerDejaVuFonts(doc, { regular: 'Regular', bold: 'Bold' })
  const bytes = documentBytes(doc)
  doc.font('Bold').text(text)
  doc.end()
  const { text: extracted } = await extractText(await getDocumentProxy(new Uint8Array(await bytes)), { mergePages: true })
  return extracted.trim()
}

describe('fonts shared by every PDF in the process', () => {
  it('keeps a letter extractable after an earlier document drew it only as part of an accented letter', async () => {
    // Ż is drawn from Z and a dot, so the first document's subset reaches Z before any text asked for Z itself.
    expect(await renderBold('Żółć')).toBe('Żółć')
    expect(await renderBold('SLZDXJL3')).toBe('SLZDXJL3')
  })
})
