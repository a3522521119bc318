import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type * as fontkit from 'fontkit'
import type PDFDocument from 'pdfkit'

// pdfkit and fontkit are required at the first PDF, not loaded with the site: with the fonts' code they hold about
// 12 MB of V8's heap that a page server never uses. Both are required (CommonJS), so pdfkit's fontkit is this one.
const require = createRequire(import.meta.url)

// DejaVu Sans has every Latin diacritic, Greek and Cyrillic (PDF's built-in Helvetica only has Windows-1252), so
// names print as they were typed; pdfkit embeds just the glyphs a document uses.
const FONT_FILES = { regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf', bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf' }
let parsedFonts: { regular: fontkit.Font; bold: fontkit.Font } | undefined

function parseFont(file: string): fontkit.Font {
  const font = (require('fontkit') as typeof fontkit).create(readFileSync(require.resolve(file)))
  if (!('layout' in font)) throw new Error(`${file} is a font collection, not a single font`)
  rememberEveryCharacter(font)
  return font
}

/**
 * fontkit caches each glyph with the characters it was first looked up by, and pdfkit writes those into the PDF's
 * text map. A subset reaches a letter's glyph with no characters when an accented letter is drawn from it (Ż from
 * Z), so in a font shared across documents a later "Z" would print but vanish from copied and searched text.
 * Looking every character up once, first, caches each glyph with its characters.
 */
function rememberEveryCharacter(font: fontkit.Font): void {
  for (const codePoint of font.characterSet) font.glyphForCodePoint(codePoint)
}

/**
 * The fonts, parsed once per process. Given the file bytes, pdfkit would parse each font again for every
 * document, which was most of a render's 45 ms; a parsed font only gathers caches, and each document still
 * embeds a subset of its own.
 */
function fonts(): { regular: fontkit.Font; bold: fontkit.Font } {
  parsedFonts ??= { regular: parseFont(FONT_FILES.regular), bold: parseFont(FONT_FILES.bold) }
  return parsedFonts
}

/** A new pdfkit document (see above for why pdfkit is required here). */
export function newPdfDocument(options: PDFKit.PDFDocumentOptions): PDFKit.PDFDocument {
  const PdfDocument = require('pdfkit') as typeof PDFDocument
  return new PdfDocument(options)
}

/** Registers a parsed font, which pdfkit accepts as well as file bytes, though its type definitions do not say so. */
function registerParsedFont(doc: PDFKit.PDFDocument, name: string, font: fontkit.Font): void {
  doc.registerFont(name, font as unknown as PDFKit.Mixins.PDFFontSource)
}

/** Registers DejaVu Sans and DejaVu Sans Bold, parsed once per process, on a pdfkit document under the names given. */
export function registerDejaVuFonts(doc: PDFKit.PDFDocument, names: { regular: string; bold: string }): void {
  registerParsedFont(doc, names.regular, fonts().regular)
  registerParsedFont(doc, names.bold, fonts().bold)
}

/** The bytes a pdfkit document writes, once `doc.end()` has been called. */
export function documentBytes(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
}
