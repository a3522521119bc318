import { formatAmount } from '@events/pricing'
import type { Kysely, Transaction } from 'kysely'
import * as z from 'zod/mini'
import type { Database } from '../../db/database.ts'
import type { BankStatementImportRow, BankStatementLineRow, BankStatementMappingRow } from '../../db/tables/bank-statements.ts'
import { newId } from '../../ids.ts'
import { paidCentsOf } from '../../registration/payment-state.ts'
import { normaliseReference, REFERENCE_ALPHABET, REFERENCE_LENGTH } from '../../registration/reference.ts'
import { singleLine } from '../../validation/fields.ts'
import { isValidationError, type ValidationError } from '../../errors.ts'
import { ownFields } from '../../submissions/fields.ts'
import { bankTransfersChange, explainTransferFailure, recordBankTransfer, type RecordedBankTransfer } from '../bank-transfers.ts'
import { normaliseBankReference } from '../../validation/fields.ts'
import { runInCommandTransaction, staffCommand, type CommandOutcome, type StaffActor, type StaffCommandContext } from '../command.ts'
import { wallClock, type ActingStaff, type BackOfficeContext } from '../context.ts'
import { BackOfficeError, isBackOfficeError } from '../errors.ts'
import { randAmount, referenceField } from '../fields.ts'
import { isStatementDateFormat, parseCsvStatement, STATEMENT_DATE_FORMATS, STATEMENT_DELIMITERS, type StatementColumns } from './parse-csv.ts'
import { BANK_PRESETS, isBankPresetId, type BankPresetId } from './bank-presets.ts'
import { looksLikeOfx, parseOfxStatement } from './parse-ofx.ts'
import { statementPaymentReference, type ParsedStatement } from './statement-line.ts'

/** A bank's saved CSV column mapping. */
export interface StatementMapping extends StatementColumns {
  id: string
  name: string
}

/** A mapping as staff typed it in the upload form; every field a string, checked by `readStatementMapping`. */
export interface StatementMappingInput {
  name: string
  delimiter: string
  dateColumn: string
  dateFormat: string
  descriptionColumn: string
  amountColumn: string
  referenceColumn: string
  decimalSeparator: string
  /** With the amount column left empty: the headings of money in and money out. The rest optional, '' for none. */
  moneyInColumn?: string
  moneyOutColumn?: string
  feeColumn?: string
  balanceColumn?: string
}

export interface StatementUpload {
  fileName: string
  content: Uint8Array
  /** How a CSV file is read: a bank's preset, a saved mapping, or a new one saved with the import. OFX files need none. */
  mapping?: { preset: string; dateFormat?: string | undefined } | { id: string } | { create: StatementMappingInput } | undefined
}

export interface StatementImport {
  id: string
  fileName: string
  format: 'csv' | 'ofx'
  mappingName: string | null
  lineCount: number
  newLineCount: number
  debitsSkipped: number
  importedBy: string
  importedAt: string
}

/** Where a statement line stands: recorded, proposed for a registration, or waiting to be assigned by hand. */
export type StatementLineState =
  | { kind: 'recorded'; registrationReference: string; recordedBy: string; recordedAt: string; splitWith?: string[] }
  | { kind: 'pays-in-full' | 'part-payment'; registrationReference: string; companyName: string; outstandingCents: number }
  | { kind: 'surplus'; registrationReference: string; companyName: string; outstandingCents: number; surplusCents: number }
  | { kind: 'already-paid'; registrationReference: string; companyName: string }
  | { kind: 'several-references'; registrationReferences: string[] }
  /** No reference found as a word: the registrations it may pay, for staff to confirm (never recorded on their own). */
  | { kind: 'unmatched'; suggestions: PaymentSuggestion[] }
  /** The same money as a line of an earlier file in the other format (`postedOn` of that line, its file's name). */
  | { kind: 'same-as'; postedOn: string; fileName: string; registrationReference: string | null }
  | { kind: 'dismissed'; reason: string; dismissedBy: string; dismissedAt: string }

/**
 * A registration a line may pay, offered to staff to confirm: its reference is inside the line's text, glued to other
 * letters (`LIMAKBKRX6ED`), or it owes exactly the line's amount and its company's name is in the line's text.
 */
export interface PaymentSuggestion {
  registrationReference: string
  companyName: string
  outstandingCents: number
  basis: 'reference-in-text' | 'amount-and-name'
}

export interface StatementLineView {
  id: string
  /** The bank reference the line is recorded under (bank_payments.bank_reference). */
  paymentReference: string
  postedOn: string
  amountCents: number
  description: string
  reference: string
  state: StatementLineState
}

/** A confirmed line's outcome: recorded, or refused with the refusal the site words (about that line). */
export type ConfirmedLine =
  | { lineId: string; outcome: 'recorded'; transfer: RecordedBankTransfer }
  | { lineId: string; outcome: 'refused'; amountCents: number; postedOn: string; error: BackOfficeError | ValidationError }

const MAX_MAPPING_TEXT = 100
const MAX_FILE_NAME = 200
const OPEN_LINES_SHOWN = 500
// Rows per insert: well under SQLite's and PostgreSQL's limits on bound parameters.
const INSERT_CHUNK = 200

const REFERENCE_TOKEN = new RegExp(`(?<![A-Z0-9])[${REFERENCE_ALPHABET}]{${REFERENCE_LENGTH}}(?![A-Z0-9])`, 'g')

/**
 * What may be a registration reference inside a line's text where it is glued to other letters or digits: every run of
 * eight letters of the references' alphabet within a longer word, upper-cased, each once.
 */
function gluedReferenceCandidates(...texts: string[]): string[] {
  const words =
    texts
      .join(' ')
      .toUpperCase()
      .match(/[A-Z0-9]+/g) ?? []
  const alphabet = new RegExp(`^[${REFERENCE_ALPHABET}]+$`)
  const candidates = new Set<string>()
  for (const word of words) {
    if (word.length <= REFERENCE_LENGTH) continue
    for (let start = 0; start + REFERENCE_LENGTH <= word.length; start += 1) {
      const window = word.slice(start, start + REFERENCE_LENGTH)
      if (alphabet.test(window)) candidates.add(window)
    }
  }
  return [...candidates]
}

// Words of a company's name that say nothing of which company it is.
const COMPANY_FORM_WORDS = new Set(['PTY', 'LTD', 'LIMITED', 'INC', 'CC', 'NPC', 'SOC', 'THE', 'AND', 'OF', 'CO', 'COMPANY', 'GROUP', 'HOLDINGS', 'SA'])

/**
 * Whether a company's name is like a line's text: a word of the name that names the company (three letters or more, not
 * "Pty", "Ltd", "Holdings" and the like) is in the text, spaces and punctuation aside (`ACMELEGAL` holds "Acme").
 */
function companyNamedIn(companyName: string, ...texts: string[]): boolean {
  const collapsed = texts
    .join('')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
  const words = (
    companyName
      .normalize('NFKD')
      .toUpperCase()
      .match(/[A-Z0-9]+/g) ?? []
  ).filter((word) => word.length >= 3 && !COMPANY_FORM_WORDS.has(word))
  return words.some((word) => collapsed.includes(word))
}

/** The registration references a statement line's description and reference may hold, upper-cased, each once. */
export function referencesIn(...texts: string[]): string[] {
  const found = texts.join(' ').toUpperCase().match(REFERENCE_TOKEN) ?? []
  return [...new Set(found)]
}

function mappingOf(row: BankStatementMappingRow): StatementMapping {
  return {
    id: row.id,
    name: row.name,
    delimiter: row.delimiter as StatementColumns['delimiter'],
    dateColumn: row.date_column,
    dateFormat: row.date_format as StatementColumns['dateFormat'],
    descriptionColumn: row.description_column,
    amountColumn: row.amount_column,
    referenceColumn: row.reference_column,
    decimalSeparator: row.decimal_separator as StatementColumns['decimalSeparator'],
    moneyInColumn: row.money_in_column,
    moneyOutColumn: row.money_out_column,
    feeColumn: row.fee_column,
    balanceColumn: row.balance_column,
  }
}

/** Every saved mapping, by name. */
export async function listStatementMappings(context: BackOfficeContext): Promise<StatementMapping[]> {
  const rows = await context.db.kysely.selectFrom('bank_statement_mappings').selectAll().orderBy('name').execute()
  return rows.map(mappingOf)
}

/** Checks a mapping typed in the form: a name, the three required columns, and known separator and date layout. */
function readStatementMapping(input: StatementMappingInput): Omit<StatementMapping, 'id'> {
  const text = (value: string, column: string, required: boolean) => {
    const cleaned = singleLine(value)
    if (required && cleaned === '') throw new BackOfficeError('invalid-input', { problem: 'mapping-text-missing', column })
    if (cleaned.length > MAX_MAPPING_TEXT) throw new BackOfficeError('invalid-input', { problem: 'mapping-text-too-long', column, max: MAX_MAPPING_TEXT })
    return cleaned
  }
  const name = text(input.name, 'name', true)
  if (!Object.hasOwn(STATEMENT_DELIMITERS, input.delimiter)) throw new BackOfficeError('invalid-input', { problem: 'mapping-delimiter' })
  if (!Object.hasOwn(STATEMENT_DATE_FORMATS, input.dateFormat)) throw new BackOfficeError('invalid-input', { problem: 'mapping-date-format' })
  if (input.decimalSeparator !== '.' && input.decimalSeparator !== ',') throw new BackOfficeError('invalid-input', { problem: 'mapping-decimal-separator' })
  const amountColumn = text(input.amountColumn, 'amountColumn', false)
  const moneyInColumn = text(input.moneyInColumn ?? '', 'moneyInColumn', false)
  const moneyOutColumn = text(input.moneyOutColumn ?? '', 'moneyOutColumn', false)
  // One signed amount column, or money in and money out in two: a file is never read with half its money.
  if (amountColumn === '' && (moneyInColumn === '' || moneyOutColumn === '')) throw new BackOfficeError('invalid-input', { problem: 'mapping-amount-missing' })
  if (amountColumn !== '' && (moneyInColumn !== '' || moneyOutColumn !== '')) throw new BackOfficeError('invalid-input', { problem: 'mapping-amount-twice' })
  return {
    name,
    delimiter: input.delimiter as StatementColumns['delimiter'],
    dateColumn: text(input.dateColumn, 'dateColumn', true),
    dateFormat: input.dateFormat as StatementColumns['dateFormat'],
    descriptionColumn: text(input.descriptionColumn, 'descriptionColumn', true),
    amountColumn,
    moneyInColumn,
    moneyOutColumn,
    feeColumn: text(input.feeColumn ?? '', 'feeColumn', false),
    balanceColumn: text(input.balanceColumn ?? '', 'balanceColumn', false),
    referenceColumn: text(input.referenceColumn, 'referenceColumn', false),
    decimalSeparator: input.decimalSeparator,
  }
}

/** A statement file's text: UTF-8 when it is valid UTF-8, else Windows-1252, which South African banks' exports use. */
function decodeStatement(content: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(content)
  } catch {
    return new TextDecoder('windows-1252').decode(content)
  }
}

type ChosenMapping = Omit<StatementMapping, 'id'> & { id?: string; preset?: BankPresetId }

async function chosenMapping(context: BackOfficeContext, mapping: StatementUpload['mapping']): Promise<ChosenMapping> {
  if (!mapping) throw new BackOfficeError('invalid-input', { problem: 'mapping-missing' })
  if ('preset' in mapping) {
    if (!isBankPresetId(mapping.preset)) throw new BackOfficeError('invalid-input', { problem: 'bank-preset' })
    const preset = BANK_PRESETS[mapping.preset]
    // The bank's date layout unless staff chose another for this file (an export set to another layout).
    const dateFormat = mapping.dateFormat === undefined || mapping.dateFormat === '' ? preset.columns.dateFormat : mapping.dateFormat
    if (!isStatementDateFormat(dateFormat)) throw new BackOfficeError('invalid-input', { problem: 'mapping-date-format' })
    return { name: preset.name, preset: mapping.preset, ...preset.columns, dateFormat }
  }
  if ('create' in mapping) return readStatementMapping(mapping.create)
  const row = await context.db.kysely.selectFrom('bank_statement_mappings').selectAll().where('id', '=', mapping.id).executeTakeFirst()
  if (!row) throw new BackOfficeError('not-found', { missing: 'column-mapping' })
  return mappingOf(row)
}

async function insertInChunks<Row>(rows: Row[], insert: (chunk: Row[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) await insert(rows.slice(start, start + INSERT_CHUNK))
}

async function storeImport(
  transaction: Transaction<Database>,
  context: BackOfficeContext,
  parsed: ParsedStatement,
  fileName: string,
  mapping: ChosenMapping | undefined,
  staff: ActingStaff,
): Promise<StatementImport> {
  const at = wallClock(context).toISOString()
  let mappingId: string | null = mapping?.id ?? null
  if (mapping && !mapping.id && !mapping.preset) {
    const taken = await transaction.selectFrom('bank_statement_mappings').select('id').where('name', '=', mapping.name).executeTakeFirst()
    if (taken) throw new BackOfficeError('invalid-input', { problem: 'mapping-name-taken', name: mapping.name })
    mappingId = newId()
    await transaction
      .insertInto('bank_statement_mappings')
      .values({
        id: mappingId,
        name: mapping.name,
        delimiter: mapping.delimiter,
        date_column: mapping.dateColumn,
        date_format: mapping.dateFormat,
        description_column: mapping.descriptionColumn,
        amount_column: mapping.amountColumn,
        reference_column: mapping.referenceColumn,
        decimal_separator: mapping.decimalSeparator,
        money_in_column: mapping.moneyInColumn ?? '',
        money_out_column: mapping.moneyOutColumn ?? '',
        fee_column: mapping.feeColumn ?? '',
        balance_column: mapping.balanceColumn ?? '',
        created_by_name: staff.name,
        created_at: at,
      })
      .execute()
  }
  const importId = newId()
  await transaction
    .insertInto('bank_statement_imports')
    .values({
      id: importId,
      file_name: fileName,
      format: parsed.format,
      mapping_id: mappingId,
      bank_preset: mapping?.preset ?? null,
      line_count: parsed.lines.length,
      new_line_count: 0,
      debits_skipped: parsed.debitsSkipped,
      imported_by_id: staff.id,
      imported_by_name: staff.name,
      imported_at: at,
    })
    .execute()
  // A line seen in an earlier import keeps its row (and so whether it was recorded); only new lines are added.
  await insertInChunks(parsed.lines, (chunk) =>
    transaction
      .insertInto('bank_statement_lines')
      .values(
        chunk.map((line) => ({
          id: newId(),
          line_key: line.key,
          payment_reference: statementPaymentReference(line.key),
          posted_on: line.postedOn,
          amount_cents: line.amountCents,
          description: line.description,
          reference: line.reference,
          first_import_id: importId,
          created_at: at,
          same_as_line_id: null,
          dismissed_reason: null,
          dismissed_by_name: null,
          dismissed_at: null,
        })),
      )
      .onConflict((conflict) => conflict.column('line_key').doNothing())
      .execute(),
  )
  const idByKey = new Map<string, { id: string; first_import_id: string }>()
  await insertInChunks(parsed.lines, async (chunk) => {
    const rows = await transaction
      .selectFrom('bank_statement_lines')
      .select(['id', 'line_key', 'first_import_id'])
      .where(
        'line_key',
        'in',
        chunk.map((line) => line.key),
      )
      .execute()
    for (const row of rows) idByKey.set(row.line_key, row)
  })
  await insertInChunks(
    parsed.lines.map((line, position) => ({ import_id: importId, position, line_id: idByKey.get(line.key)!.id })),
    (chunk) => transaction.insertInto('bank_statement_import_lines').values(chunk).execute(),
  )
  const newLines = parsed.lines.filter((line) => idByKey.get(line.key)!.first_import_id === importId)
  await linkTwins(
    transaction,
    parsed.format,
    newLines.map((line) => ({ ...line, id: idByKey.get(line.key)!.id })),
  )
  const newLineCount = newLines.length
  await transaction.updateTable('bank_statement_imports').set({ new_line_count: newLineCount }).where('id', '=', importId).execute()
  return {
    id: importId,
    fileName,
    format: parsed.format,
    mappingName: mapping?.name ?? null,
    lineCount: parsed.lines.length,
    newLineCount,
    debitsSkipped: parsed.debitsSkipped,
    importedBy: staff.name,
    importedAt: at,
  }
}

/**
 * Links each new line to a line of the other format (an OFX against a CSV of the same account) kept earlier with the
 * same date and amount, naming the same registrations, and not linked yet, one to one in order: two files of one
 * account list the same money, and each of two equal transfers on one day pairs with one of the other file's two.
 */
async function linkTwins(
  transaction: Transaction<Database>,
  format: ParsedStatement['format'],
  lines: Array<{ id: string; postedOn: string; amountCents: number; description: string; reference: string }>,
): Promise<void> {
  if (lines.length === 0) return
  const days = lines.map((line) => line.postedOn).sort()
  // One read of the other format's unpaired lines over the file's days; the pairing is done here, in order.
  const candidates = await transaction
    .selectFrom('bank_statement_lines as candidate')
    .select(['candidate.id', 'candidate.posted_on', 'candidate.amount_cents', 'candidate.description', 'candidate.reference'])
    .where('candidate.posted_on', '>=', days[0]!)
    .where('candidate.posted_on', '<=', days.at(-1)!)
    .where('candidate.line_key', 'like', format === 'csv' ? 'ofx:%' : 'csv:%')
    .where('candidate.same_as_line_id', 'is', null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('bank_statement_lines as twin').select('twin.id').whereRef('twin.same_as_line_id', '=', 'candidate.id'))))
    .orderBy('candidate.created_at')
    .orderBy('candidate.id')
    .execute()
  // Two lines are the same money when their date and amount agree and they name the same registrations (or none):
  // equal transfers for different registrations on one day stay apart.
  const twinKey = (postedOn: string, amountCents: number, description: string, reference: string) =>
    `${postedOn}#${amountCents}#${referencesIn(description, reference).sort().join(',')}`
  const waiting = new Map<string, string[]>()
  for (const candidate of candidates) {
    const key = twinKey(candidate.posted_on, candidate.amount_cents, candidate.description, candidate.reference)
    waiting.set(key, [...(waiting.get(key) ?? []), candidate.id])
  }
  for (const line of lines) {
    const twinId = waiting.get(twinKey(line.postedOn, line.amountCents, line.description, line.reference))?.shift()
    if (twinId) await transaction.updateTable('bank_statement_lines').set({ same_as_line_id: twinId }).where('id', '=', line.id).execute()
  }
}

/** Whether bytes are a binary file (a PDF, a spreadsheet, an image) rather than text: NUL bytes or many control bytes. */
function looksBinary(content: Uint8Array): boolean {
  const sample = content.subarray(0, 8192)
  let control = 0
  for (const byte of sample) {
    if (byte === 0) return true
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) control += 1
  }
  return control > sample.length / 100
}

/** What a statement file would record, shown to staff before anything is stored. */
export interface StatementPreview {
  fileName: string
  format: 'csv' | 'ofx'
  mappingName: string | null
  /** Money received: the lines that would be kept for matching. */
  lineCount: number
  moneyInCents: number
  /** Payments out and charges, left aside. */
  debitsSkipped: number
  moneyOutCents: number
  /** The first and last dates of the money received, YYYY-MM-DD. */
  firstDate: string
  lastDate: string
  /** True when the file's running balance was followed line by line and agreed throughout. */
  balanceChecked: boolean
}

/** Reads a statement whole, or refuses it: the one reading behind both the preview and the import. */
async function readStatement(
  context: BackOfficeContext,
  upload: StatementUpload,
): Promise<{ fileName: string; parsed: ParsedStatement; mapping: ChosenMapping | undefined }> {
  const fileName = singleLine(upload.fileName).slice(0, MAX_FILE_NAME) || 'statement'
  if (upload.content.byteLength === 0) throw new BackOfficeError('invalid-input', { problem: 'statement-file-missing' })
  // Nothing of a binary file is shown back: its bytes would only be noise in the message.
  if (looksBinary(upload.content)) throw new BackOfficeError('invalid-input', { problem: 'not-a-statement', fileName })
  const text = decodeStatement(upload.content)
  const ofx = looksLikeOfx(text)
  const mapping = ofx ? undefined : await chosenMapping(context, upload.mapping)
  const parsed = ofx ? parseOfxStatement(text) : parseCsvStatement(text, mapping!)
  if (parsed.lines.length === 0) {
    throw new BackOfficeError('invalid-input', { problem: 'statement-no-money-in', paymentsOut: parsed.debitsSkipped })
  }
  return { fileName, parsed, mapping }
}

/**
 * What importing a statement would record (how many lines, money in and out, first and last date, whether its running
 * balance agreed), read exactly as the import reads it, with nothing stored. A file the import would refuse is refused.
 */
export async function previewBankStatement(context: BackOfficeContext, upload: StatementUpload): Promise<StatementPreview> {
  const { fileName, parsed, mapping } = await readStatement(context, upload)
  const dates = parsed.lines.map((line) => line.postedOn).sort()
  return {
    fileName,
    format: parsed.format,
    mappingName: mapping?.name ?? null,
    lineCount: parsed.lines.length,
    moneyInCents: parsed.lines.reduce((sum, line) => sum + line.amountCents, 0),
    debitsSkipped: parsed.debitsSkipped,
    moneyOutCents: parsed.moneyOutCents ?? 0,
    firstDate: dates[0]!,
    lastDate: dates.at(-1)!,
    balanceChecked: parsed.balanceChecked ?? false,
  }
}

/**
 * Imports a bank statement (OFX, or CSV read with a bank's preset, a saved or a new mapping): its credits are kept, each once across
 * imports, for matching. A file that does not read, or holds no money received, is refused and nothing is stored.
 */
export async function importBankStatement(context: StaffCommandContext, upload: StatementUpload, staff: StaffActor): Promise<StatementImport> {
  const { fileName, parsed, mapping } = await readStatement(context, upload)
  return runInCommandTransaction(context, staff, async (transaction): Promise<CommandOutcome<StatementImport>> => {
    const imported = await storeImport(transaction, context, parsed, fileName, mapping, staff)
    return {
      result: imported,
      audit: [
        {
          action: 'bank-statement-imported',
          subjectType: 'bank-statement-import',
          subjectId: imported.id,
          after: {
            fileName: imported.fileName,
            format: imported.format,
            mapping: imported.mappingName,
            lines: imported.lineCount,
            newLines: imported.newLineCount,
          },
        },
      ],
    }
  })
}

function importsQuery(context: BackOfficeContext) {
  return context.db.kysely
    .selectFrom('bank_statement_imports')
    .leftJoin('bank_statement_mappings', 'bank_statement_mappings.id', 'bank_statement_imports.mapping_id')
    .selectAll('bank_statement_imports')
    .select('bank_statement_mappings.name as mapping_name')
}

function importOf(row: BankStatementImportRow & { mapping_name: string | null }): StatementImport {
  return {
    id: row.id,
    fileName: row.file_name,
    format: row.format,
    mappingName: row.mapping_name ?? (row.bank_preset && isBankPresetId(row.bank_preset) ? BANK_PRESETS[row.bank_preset].name : null),
    lineCount: row.line_count,
    newLineCount: row.new_line_count,
    debitsSkipped: row.debits_skipped,
    importedBy: row.imported_by_name,
    importedAt: row.imported_at,
  }
}

/** The latest imports, newest first. */
export async function listStatementImports(context: BackOfficeContext, limit = 10): Promise<StatementImport[]> {
  const rows = await importsQuery(context)
    .orderBy('bank_statement_imports.imported_at', 'desc')
    .orderBy('bank_statement_imports.id', 'desc')
    .limit(limit)
    .execute()
  return rows.map(importOf)
}

/** One import's summary, or undefined for an unknown id. */
export async function getStatementImport(context: BackOfficeContext, importId: string): Promise<StatementImport | undefined> {
  const row = await importsQuery(context).where('bank_statement_imports.id', '=', importId).executeTakeFirst()
  return row ? importOf(row) : undefined
}

type LineWithRecording = BankStatementLineRow & {
  recorded_for: string | null
  recorded_by: string | null
  recorded_at: string | null
  twin_posted_on: string | null
  twin_file_name: string | null
  twin_recorded_for: string | null
}

function linesWithRecording(queries: Kysely<Database>) {
  return (
    queries
      .selectFrom('bank_statement_lines')
      .leftJoin('bank_payments', 'bank_payments.bank_reference', 'bank_statement_lines.payment_reference')
      .leftJoin('registrations', 'registrations.id', 'bank_payments.registration_id')
      .leftJoin('sponsorship_payments', 'sponsorship_payments.bank_reference', 'bank_statement_lines.payment_reference')
      .leftJoin('sponsorship_deals', 'sponsorship_deals.id', 'sponsorship_payments.deal_id')
      .leftJoin('bank_statement_lines as twin', 'twin.id', 'bank_statement_lines.same_as_line_id')
      .leftJoin('bank_statement_imports as twin_import', 'twin_import.id', 'twin.first_import_id')
      .leftJoin('bank_payments as twin_payment', 'twin_payment.bank_reference', 'twin.payment_reference')
      .leftJoin('registrations as twin_registration', 'twin_registration.id', 'twin_payment.registration_id')
      .selectAll('bank_statement_lines')
      // A line paid a registration or a sponsorship deal (whose reference is from the same alphabet).
      .select((eb) => [
        eb.fn.coalesce('registrations.reference', 'sponsorship_deals.reference').as('recorded_for'),
        eb.fn.coalesce('bank_payments.recorded_by_name', 'sponsorship_payments.recorded_by_name').as('recorded_by'),
        eb.fn.coalesce('bank_payments.recorded_at', 'sponsorship_payments.recorded_at').as('recorded_at'),
      ])
      .select(['twin.posted_on as twin_posted_on', 'twin_import.file_name as twin_file_name', 'twin_registration.reference as twin_recorded_for'])
  )
}

interface RegistrationOwing {
  reference: string
  companyName: string
  outstandingCents: number
  paidByCard: boolean
}

/**
 * Registrations with what each still owes after its credit notes and payments: those of the given references, or every
 * one not paid nor cancelled as a whole.
 */
async function registrationsOwing(queries: Kysely<Database>, which: { references: string[] } | 'unpaid'): Promise<RegistrationOwing[]> {
  const rows = await queries
    .selectFrom('registrations')
    .leftJoin('bank_payments', 'bank_payments.registration_id', 'registrations.id')
    .select(['registrations.reference', 'registrations.company_name', 'registrations.status', 'registrations.total_cents'])
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('bank_payments.amount_cents'), eb.lit(0)).as('received'))
    // What cancellations credited is not owed (paymentStateOf counts it the same way).
    .select((eb) =>
      eb
        .selectFrom('cancellations')
        .select((inner) => inner.fn.coalesce(inner.fn.sum<number | string>('cancellations.credited_total_cents'), inner.lit(0)).as('credited'))
        .whereRef('cancellations.registration_id', '=', 'registrations.id')
        .as('credited'),
    )
    .$if(which !== 'unpaid', (query) => query.where('registrations.reference', 'in', which === 'unpaid' ? [] : which.references))
    .$if(which === 'unpaid', (query) => query.where('registrations.status', '!=', 'paid').where('registrations.cancelled_at', 'is', null))
    .groupBy(['registrations.id', 'registrations.reference', 'registrations.company_name', 'registrations.status', 'registrations.total_cents'])
    .execute()
  return rows.map((row) => {
    const paidCents = paidCentsOf(row, Number(row.received))
    return {
      reference: row.reference,
      companyName: row.company_name,
      outstandingCents: Math.max(0, row.total_cents - Number(row.credited ?? 0) - paidCents),
      paidByCard: row.status === 'paid' && Number(row.received) === 0,
    }
  })
}

/**
 * The registrations a line naming none may pay, for staff to confirm: those whose reference is glued inside its text;
 * failing those, those owing exactly its amount whose company's name is in its text. At most five, by reference.
 */
function suggestionsFor(
  line: LineWithRecording,
  byReference: ReadonlyMap<string, RegistrationOwing>,
  owing: readonly RegistrationOwing[],
): PaymentSuggestion[] {
  const glued = gluedReferenceCandidates(line.description, line.reference)
    .map((reference) => byReference.get(reference))
    .filter((registration): registration is RegistrationOwing => registration !== undefined && !registration.paidByCard)
  const matches: Array<[RegistrationOwing, PaymentSuggestion['basis']]> =
    glued.length > 0
      ? glued.map((registration) => [registration, 'reference-in-text'])
      : owing
          .filter(
            (registration) => registration.outstandingCents === line.amount_cents && companyNamedIn(registration.companyName, line.description, line.reference),
          )
          .map((registration) => [registration, 'amount-and-name'])
  return matches
    .sort(([a], [b]) => a.reference.localeCompare(b.reference))
    .slice(0, 5)
    .map(([registration, basis]) => ({
      registrationReference: registration.reference,
      companyName: registration.companyName,
      outstandingCents: registration.outstandingCents,
      basis,
    }))
}

/**
 * What each line proposes, in the order given: a line naming one registration is a payment in full, a part payment
 * or a surplus against what is still outstanding once the lines before it are counted, so two lines paying one
 * registration are never both proposed in full.
 */
async function proposalsFor(queries: Kysely<Database>, lines: LineWithRecording[]): Promise<StatementLineView[]> {
  const open = lines.filter((line) => line.recorded_for === null && line.dismissed_reason === null && line.same_as_line_id === null)
  const wanted = [
    ...new Set(open.flatMap((line) => [...referencesIn(line.description, line.reference), ...gluedReferenceCandidates(line.description, line.reference)])),
  ]
  // `outstandingCents` counts down as lines are proposed.
  const registrations = new Map<string, RegistrationOwing>()
  for (let start = 0; start < wanted.length; start += INSERT_CHUNK) {
    for (const owing of await registrationsOwing(queries, { references: wanted.slice(start, start + INSERT_CHUNK) })) {
      registrations.set(owing.reference, owing)
    }
  }
  // For lines naming no registration: those still owing something, whose amount and name a line may match.
  const owingAll = open.some((line) => referencesIn(line.description, line.reference).every((reference) => !registrations.has(reference)))
    ? await registrationsOwing(queries, 'unpaid')
    : []
  // A sponsorship deal's invoice is paid by transfer as a registration is; a cancelled deal owes nothing.
  for (let start = 0; start < wanted.length; start += INSERT_CHUNK) {
    const deals = await queries
      .selectFrom('sponsorship_deals')
      .leftJoin('sponsorship_payments', 'sponsorship_payments.deal_id', 'sponsorship_deals.id')
      .select(['sponsorship_deals.reference', 'sponsorship_deals.company_name', 'sponsorship_deals.status', 'sponsorship_deals.total_cents'])
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('sponsorship_payments.amount_cents'), eb.lit(0)).as('received'))
      .where('sponsorship_deals.reference', 'in', wanted.slice(start, start + INSERT_CHUNK))
      .where('sponsorship_deals.status', '!=', 'awaiting-approval')
      .groupBy([
        'sponsorship_deals.id',
        'sponsorship_deals.reference',
        'sponsorship_deals.company_name',
        'sponsorship_deals.status',
        'sponsorship_deals.total_cents',
      ])
      .execute()
    for (const deal of deals) {
      const owedCents = deal.status === 'approved' ? deal.total_cents : 0
      registrations.set(deal.reference, {
        reference: deal.reference,
        companyName: deal.company_name,
        outstandingCents: Math.max(0, owedCents - Number(deal.received)),
        paidByCard: false,
      })
    }
  }
  const splits = await splitPartsOf(
    queries,
    lines.flatMap((line) => (line.recorded_for === null ? [] : [line.payment_reference])),
  )
  return lines.map((line) => {
    const view = {
      id: line.id,
      paymentReference: line.payment_reference,
      postedOn: line.posted_on,
      amountCents: line.amount_cents,
      description: line.description,
      reference: line.reference,
    }
    if (line.recorded_for !== null) {
      const splitWith = splits.get(line.payment_reference)
      const recorded = {
        kind: 'recorded' as const,
        registrationReference: line.recorded_for,
        recordedBy: line.recorded_by ?? '',
        recordedAt: line.recorded_at ?? '',
      }
      return { ...view, state: splitWith ? { ...recorded, splitWith } : recorded }
    }
    if (line.dismissed_reason !== null) {
      return {
        ...view,
        state: { kind: 'dismissed', reason: line.dismissed_reason, dismissedBy: line.dismissed_by_name ?? '', dismissedAt: line.dismissed_at ?? '' },
      }
    }
    if (line.same_as_line_id !== null) {
      return {
        ...view,
        state: {
          kind: 'same-as',
          postedOn: line.twin_posted_on ?? line.posted_on,
          fileName: line.twin_file_name ?? '',
          registrationReference: line.twin_recorded_for,
        },
      }
    }
    const known = referencesIn(line.description, line.reference).filter((reference) => registrations.has(reference))
    if (known.length === 0) return { ...view, state: { kind: 'unmatched', suggestions: suggestionsFor(line, registrations, owingAll) } }
    if (known.length > 1) return { ...view, state: { kind: 'several-references', registrationReferences: known } }
    const registrationReference = known[0]!
    const registration = registrations.get(registrationReference)!
    const { companyName, outstandingCents } = registration
    // A registration paid by card takes no transfer (recordBankTransfer refuses it); any other gets it in full.
    if (registration.paidByCard) return { ...view, state: { kind: 'already-paid', registrationReference, companyName } }
    if (line.amount_cents > outstandingCents) {
      registration.outstandingCents = 0
      return { ...view, state: { kind: 'surplus', registrationReference, companyName, outstandingCents, surplusCents: line.amount_cents - outstandingCents } }
    }
    registration.outstandingCents -= line.amount_cents
    return {
      ...view,
      state: { kind: line.amount_cents === outstandingCents ? 'pays-in-full' : 'part-payment', registrationReference, companyName, outstandingCents },
    }
  })
}

/**
 * Statement lines with what each proposes: one import's lines in the file's order (recorded ones included), or without
 * an import every line not yet recorded, oldest first (at most 500).
 */
export async function statementLines(context: BackOfficeContext, options: { importId?: string | undefined } = {}): Promise<StatementLineView[]> {
  const queries = context.db.kysely
  const rows = options.importId
    ? await linesWithRecording(queries)
        .innerJoin('bank_statement_import_lines', 'bank_statement_import_lines.line_id', 'bank_statement_lines.id')
        .where('bank_statement_import_lines.import_id', '=', options.importId)
        .orderBy('bank_statement_import_lines.position')
        .execute()
    : await linesWithRecording(queries)
        .where('bank_payments.id', 'is', null)
        .where('sponsorship_payments.id', 'is', null)
        .where('bank_statement_lines.dismissed_reason', 'is', null)
        .where('bank_statement_lines.same_as_line_id', 'is', null)
        .orderBy('bank_statement_lines.posted_on')
        .orderBy('bank_statement_lines.id')
        .limit(OPEN_LINES_SHOWN)
        .execute()
  return proposalsFor(queries, rows)
}

function lineRows(context: BackOfficeContext, lineIds: readonly string[]): Promise<LineWithRecording[]> {
  return lineRowsIn(context.db.kysely, context, lineIds)
}

async function lineRowsIn(queries: Kysely<Database>, context: BackOfficeContext, lineIds: readonly string[]): Promise<LineWithRecording[]> {
  if (lineIds.length === 0) return []
  // On PostgreSQL the line is locked, so two members dismissing or recording it at once are told apart.
  return linesWithRecording(queries)
    .$if(context.db.dialect === 'postgres' && queries !== context.db.kysely, (query) => query.forUpdate('bank_statement_lines'))
    .where('bank_statement_lines.id', 'in', [...lineIds])
    .orderBy('bank_statement_lines.posted_on')
    .orderBy('bank_statement_lines.id')
    .execute()
}

function noteFor(line: Pick<StatementLineView, 'postedOn' | 'description' | 'reference'>): string {
  return `Bank statement of ${line.postedOn}: ${[line.description, line.reference].filter(Boolean).join(' / ')}`.slice(0, 1000)
}

/**
 * Why a line is not recorded as it stands: it is settled already (recorded, dismissed, or the same money as an earlier
 * file's line), or it names no one registration that can take it. The details carry what the site words.
 */
function lineRefusal(line: StatementLineView): BackOfficeError {
  const { state } = line
  const details: Record<string, string | number> = { amountCents: line.amountCents, postedOn: line.postedOn, state: state.kind }
  switch (state.kind) {
    case 'recorded':
      return new BackOfficeError('statement-line-settled', { ...details, registrationReference: state.registrationReference })
    case 'dismissed':
      return new BackOfficeError('statement-line-settled', { ...details, dismissedBy: state.dismissedBy, reason: state.reason })
    case 'same-as':
      return new BackOfficeError('statement-line-settled', {
        ...details,
        earlierPostedOn: state.postedOn,
        fileName: state.fileName,
        ...(state.registrationReference ? { registrationReference: state.registrationReference } : {}),
      })
    case 'already-paid':
      return new BackOfficeError('statement-line-unmatched', { ...details, registrationReference: state.registrationReference })
    case 'several-references':
      return new BackOfficeError('statement-line-unmatched', { ...details, registrationReferences: state.registrationReferences.join(', ') })
    default:
      return new BackOfficeError('statement-line-unmatched', details)
  }
}

/**
 * Records the chosen lines' proposals in one step, each through `recordBankTransfer` (receipts, part payments, a
 * surplus owed back, and the once-only bank reference as for a transfer typed in by hand). What each line proposes is worked out again here, so
 * a line recorded meanwhile, or one whose registration was paid meanwhile, is refused rather than recorded twice.
 */
export async function confirmStatementLines(context: StaffCommandContext, lineIds: readonly string[], staff: StaffActor): Promise<ConfirmedLine[]> {
  const lines = await proposalsFor(context.db.kysely, await lineRows(context, [...new Set(lineIds)]))
  const results: ConfirmedLine[] = []
  for (const line of lines) {
    const { state } = line
    if (state.kind !== 'pays-in-full' && state.kind !== 'part-payment' && state.kind !== 'surplus') {
      results.push({ lineId: line.id, outcome: 'refused', amountCents: line.amountCents, postedOn: line.postedOn, error: lineRefusal(line) })
      continue
    }
    try {
      results.push({ lineId: line.id, outcome: 'recorded', transfer: await recordLine(context, line, state.registrationReference, staff) })
    } catch (error) {
      if (!isBackOfficeError(error) && !isValidationError(error)) throw error
      results.push({ lineId: line.id, outcome: 'refused', amountCents: line.amountCents, postedOn: line.postedOn, error })
    }
  }
  return results
}

function recordLine(context: StaffCommandContext, line: StatementLineView, registrationReference: string, staff: StaffActor): Promise<RecordedBankTransfer> {
  return recordBankTransfer(
    context,
    {
      reference: registrationReference,
      amount: formatAmount(line.amountCents),
      receivedOn: line.postedOn,
      bankReference: line.paymentReference,
      note: noteFor(line),
    },
    staff,
  )
}

/**
 * Records a line that named no registration (or several) against the registration staff chose. The amount is the
 * line's; more than is outstanding is recorded in full by `recordBankTransfer`, the surplus owed back, as for any
 * transfer.
 */
export async function assignStatementLine(
  context: StaffCommandContext,
  lineId: string,
  registrationReference: string,
  staff: StaffActor,
): Promise<RecordedBankTransfer> {
  const [line] = await proposalsFor(context.db.kysely, await lineRows(context, [lineId]))
  if (!line) throw new BackOfficeError('not-found', { missing: 'statement-line' })
  if (line.state.kind === 'recorded' || line.state.kind === 'same-as' || line.state.kind === 'dismissed') throw lineRefusal(line)
  const reference = normaliseReference(registrationReference)
  if (!reference) throw new BackOfficeError('invalid-input', { problem: 'registration-reference', length: REFERENCE_LENGTH })
  return recordLine(context, line, reference, staff)
}

/** The bank reference of a split line's further parts: the line's own, then `/2`, `/3`…, each accepted once. */
function splitPartReference(paymentReference: string, part: number): string {
  return part === 1 ? paymentReference : `${paymentReference}/${part}`
}

/** For recorded lines, the registrations their further parts paid (lines split across several registrations). */
async function splitPartsOf(queries: Kysely<Database>, paymentReferences: string[]): Promise<Map<string, string[]>> {
  const parts = new Map<string, string[]>()
  for (let start = 0; start < paymentReferences.length; start += INSERT_CHUNK) {
    const chunk = paymentReferences.slice(start, start + INSERT_CHUNK)
    const rows = await queries
      .selectFrom('bank_payments')
      .innerJoin('registrations', 'registrations.id', 'bank_payments.registration_id')
      .select(['bank_payments.bank_reference', 'registrations.reference'])
      .where((eb) => eb.or(chunk.map((reference) => eb('bank_payments.bank_reference', 'like', `${reference}/%`))))
      .orderBy('bank_payments.bank_reference')
      .execute()
    for (const row of rows) {
      const lineReference = row.bank_reference.slice(0, row.bank_reference.indexOf('/'))
      parts.set(lineReference, [...(parts.get(lineReference) ?? []), row.reference])
    }
  }
  return parts
}

const MAX_SPLIT_PARTS = 20

/** One statement line split across registrations, as the form sends it: each part's registration and amount in rand. */
export const statementLineSplitSchema = z.pipe(
  ownFields,
  z.object({
    lineId: z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required'))),
    parts: z.pipe(
      z.array(z.object({ reference: referenceField, amount: randAmount })),
      z.array(z.object({ reference: z.string(), amount: z.number() })).check(
        z.minLength(2, 'too-few-parts'),
        z.maxLength(MAX_SPLIT_PARTS, 'too-many-parts'),
        z.refine((parts) => new Set(parts.map((part) => normaliseReference(part.reference) ?? part.reference)).size === parts.length, 'repeated-registration'),
      ),
    ),
  }),
)

export type StatementLineSplit = z.input<typeof statementLineSplitSchema>

function isSettled(line: StatementLineView): boolean {
  return line.state.kind === 'recorded' || line.state.kind === 'same-as' || line.state.kind === 'dismissed'
}

/**
 * Records one statement line (a company's one transfer for several registrations) as a payment of each part against
 * its registration, all in one transaction with their audit rows: the parts must add up to the line's amount, and the
 * line is then recorded once (its first part carries its bank reference, so it cannot be recorded again).
 */
export const splitStatementLine = staffCommand(
  statementLineSplitSchema,
  async (context, { lineId, parts }, staff) => {
    const [line] = await proposalsFor(context.db.kysely, await lineRows(context, [lineId]))
    if (!line) throw new BackOfficeError('not-found', { missing: 'statement-line' })
    if (isSettled(line)) throw lineRefusal(line)
    const totalCents = parts.reduce((sum, part) => sum + part.amount, 0)
    if (totalCents !== line.amountCents) {
      throw new BackOfficeError('split-does-not-add-up', { totalCents, lineCents: line.amountCents }, 'parts')
    }
    const transfers = splitTransfers(line, parts)
    return bankTransfersChange(context, transfers, staff)
  },
  {
    explainFailure: async (error, { lineId, parts }, context) => {
      const [line] = await proposalsFor(context.db.kysely, await lineRows(context, [lineId]))
      return line ? explainTransferFailure(error, splitTransfers(line, parts), context) : undefined
    },
  },
)

/** A split line's parts as the transfers recorded: the line's date, each part's bank reference and a note naming the part. */
function splitTransfers(line: StatementLineView, parts: ReadonlyArray<{ reference: string; amount: number }>) {
  return parts.map((part, index) => ({
    reference: part.reference,
    amountCents: part.amount,
    receivedOn: line.postedOn,
    bankReference: normaliseBankReference(splitPartReference(line.paymentReference, index + 1)),
    note: `${noteFor(line)} (part ${index + 1} of ${parts.length})`.slice(0, 1000),
  }))
}

const MAX_DISMISS_REASON = 200

/** A statement line set aside as no registration's payment, as the form sends it: the line and why. */
export const statementLineDismissalSchema = z.pipe(
  ownFields,
  z.object({
    lineId: z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required'))),
    reason: z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required'), z.maxLength(MAX_DISMISS_REASON, 'too-long'))),
  }),
)

export type StatementLineDismissal = z.input<typeof statementLineDismissalSchema>

/**
 * Sets a line that is no registration's payment (bank charges, interest, another business's income) aside with the
 * reason, and its audit row, in one transaction. The line is kept once across imports, so it stays dismissed when the
 * statement is imported again.
 */
export const dismissStatementLine = staffCommand(statementLineDismissalSchema, async (context, { lineId, reason }, staff) => {
  const at = wallClock(context).toISOString()
  return async (transaction): Promise<CommandOutcome<StatementLineView>> => {
    const [line] = await proposalsFor(transaction, await lineRowsIn(transaction, context, [lineId]))
    if (!line) throw new BackOfficeError('not-found', { missing: 'statement-line' })
    if (isSettled(line)) throw lineRefusal(line)
    const dismissed = await transaction
      .updateTable('bank_statement_lines')
      .set({ dismissed_reason: reason, dismissed_by_name: staff.name, dismissed_at: at })
      .where('id', '=', line.id)
      .where('dismissed_reason', 'is', null)
      .executeTakeFirst()
    if (Number(dismissed.numUpdatedRows) === 0)
      throw new BackOfficeError('statement-line-settled', {
        amountCents: line.amountCents,
        postedOn: line.postedOn,
        state: 'dismissed',
      })
    return {
      result: { ...line, state: { kind: 'dismissed', reason, dismissedBy: staff.name, dismissedAt: at } },
      audit: [
        {
          action: 'statement-line-dismissed',
          subjectType: 'bank-statement-line',
          subjectId: line.id,
          before: { postedOn: line.postedOn, amountCents: line.amountCents, description: line.description, reference: line.reference },
          after: { reason },
        },
      ],
    }
  }
})
