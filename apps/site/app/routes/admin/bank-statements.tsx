import {
  BANK_PRESET_CHOICES,
  assignStatementLine,
  confirmStatementLines,
  dismissStatementLine,
  getStatementImport,
  importBankStatement,
  previewBankStatement,
  listStatementImports,
  listStatementMappings,
  STATEMENT_DATE_FORMATS,
  STATEMENT_DELIMITERS,
  splitStatementLine,
  statementLines,
  type PaymentSuggestion,
  type StatementLineView,
  type StatementMappingInput,
  type StatementPreview,
} from '@events/core'
import { formatRand } from '@events/pricing'
import { data, Form, Link, redirect } from 'react-router'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { attemptChange, backOfficeContext, commandContext, refusalSentence, runStaffCommand, staffActor } from '../../lib/backoffice.server'
import { fromDatabase } from '../../lib/database.server'
import { sameAsWording, statementLineRefusal } from '../../lib/refusals'
import { requestFactsContext } from '../../lib/services.server'
import type { Route } from './+types/bank-statements'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { AdminTable } from '../../components/admin/AdminTable'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'
import { FieldRow, Options, SubmitButton } from '../../components/admin/FormControls'
import { formatAdminMinute } from '../../lib/admin-format'

export function meta() {
  return adminMeta('Bank statements')
}

const NEW_MAPPING = 'new'
// The bank list's values: a preset (`preset:fnb`), a mapping saved earlier (`mapping:{id}`), or a new mapping.
const PRESET_PREFIX = 'preset:'
const MAPPING_PREFIX = 'mapping:'

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const context = backOfficeContext(args.context)
  const importId = new URL(args.request.url).searchParams.get('import') ?? undefined
  const [mappings, imports, shownImport, lines] = await fromDatabase(args.context, () =>
    Promise.all([
      listStatementMappings(context),
      listStatementImports(context),
      importId ? getStatementImport(context, importId) : undefined,
      statementLines(context, { importId }),
    ]),
  )
  if (importId && !shownImport) throw data('No such statement import', { status: 404 })
  // The choices of the mapping form come from the core with the data: the core's code stays on the server.
  const choices = { dateFormats: Object.entries(STATEMENT_DATE_FORMATS), delimiters: Object.entries(STATEMENT_DELIMITERS), banks: BANK_PRESET_CHOICES }
  // What a repeated line repeats is worded here on the server, like every other choice of this page.
  const shownLines = lines.map((line) => ({
    ...line,
    sameAs: line.state.kind === 'same-as' ? sameAsWording({ ...line.state, earlierPostedOn: line.state.postedOn }) : null,
  }))
  return data({ mappings, imports, shownImport: shownImport ?? null, lines: shownLines, choices }, { headers })
}

/** A refused split's rows as typed, so the form comes back with them (it works without JavaScript). */
type TypedSplit = { line: string; references: string[]; amounts: string[] }

/** A file read and checked but not yet stored: its figures, and what the confirm form posts back to import it. */
type PendingImport = { summary: StatementPreview; fileName: string; contentBase64: string; mapping: string; mappingFields: Record<string, string> }

type ActionAnswer = { notice: string | null; error: string | null; refusals: string[]; typedSplit?: TypedSplit; preview?: PendingImport }

function answer(notice: string | null, error: string | null = null, refusals: string[] = []): ActionAnswer {
  return { notice, error, refusals }
}

const MAPPING_FIELDS = [
  'mappingName',
  'delimiter',
  'dateColumn',
  'dateFormat',
  'descriptionColumn',
  'amountColumn',
  'moneyInColumn',
  'moneyOutColumn',
  'feeColumn',
  'balanceColumn',
  'referenceColumn',
  'decimalSeparator',
  'presetDateFormat',
] as const

function mappingInput(form: FormData): StatementMappingInput {
  return {
    name: formText(form, 'mappingName'),
    delimiter: formText(form, 'delimiter'),
    dateColumn: formText(form, 'dateColumn'),
    dateFormat: formText(form, 'dateFormat'),
    descriptionColumn: formText(form, 'descriptionColumn'),
    amountColumn: formText(form, 'amountColumn'),
    moneyInColumn: formText(form, 'moneyInColumn'),
    moneyOutColumn: formText(form, 'moneyOutColumn'),
    feeColumn: formText(form, 'feeColumn'),
    balanceColumn: formText(form, 'balanceColumn'),
    referenceColumn: formText(form, 'referenceColumn'),
    decimalSeparator: formText(form, 'decimalSeparator'),
  }
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const { context } = args
  const { log } = context.get(requestFactsContext)
  const intent = formText(form, 'intent')

  const surplusText = (transfers: ReadonlyArray<{ reference: string; surplusCents: number }>) =>
    transfers
      .filter((transfer) => transfer.surplusCents > 0)
      .map((transfer) => ` ${formatRand(transfer.surplusCents)} paid beyond what ${transfer.reference} owed is owed back: see Refunds to pay out.`)
      .join('')

  // A statement is read and shown first (intent `preview`); only the confirm form's post (intent `import`), which
  // carries the same bytes back in a hidden field, stores it. Both work without JavaScript.
  if (intent === 'preview' || intent === 'import') {
    const file = form.get('statement')
    const carried = formText(form, 'statementContent')
    const upload =
      intent === 'preview'
        ? file instanceof File && file.size > 0
          ? { fileName: file.name, content: new Uint8Array(await file.arrayBuffer()) }
          : undefined
        : carried !== ''
          ? { fileName: formText(form, 'statementName'), content: new Uint8Array(Buffer.from(carried, 'base64')) }
          : undefined
    if (!upload) return data(answer(null, 'Choose the statement file exported from the bank (CSV or OFX).'), { status: 400 })
    const chosen = formText(form, 'mapping')
    const mapping =
      chosen === NEW_MAPPING
        ? { create: mappingInput(form) }
        : chosen.startsWith(PRESET_PREFIX)
          ? { preset: chosen.slice(PRESET_PREFIX.length), dateFormat: formText(form, 'presetDateFormat') }
          : chosen.startsWith(MAPPING_PREFIX)
            ? { id: chosen.slice(MAPPING_PREFIX.length) }
            : undefined
    if (intent === 'preview') {
      const previewed = await attemptChange(context, () => previewBankStatement(backOfficeContext(context), { ...upload, mapping }))
      if (!previewed.ok) return data(answer(null, previewed.message), { status: 400 })
      const mappingFields = Object.fromEntries(MAPPING_FIELDS.map((name) => [name, formText(form, name)]))
      const preview = {
        summary: previewed.value,
        fileName: upload.fileName,
        contentBase64: Buffer.from(upload.content).toString('base64'),
        mapping: chosen,
        mappingFields,
      }
      return data({ ...answer(null), preview })
    }
    // The import writes its audit row in its own transaction.
    const imported = await attemptChange(context, () => importBankStatement(commandContext(context), { ...upload, mapping }, staffActor(context, session.user)))
    if (!imported.ok) return data(answer(null, imported.message), { status: 400 })
    const { value } = imported
    log.info({ importId: value.id, lines: value.lineCount, newLines: value.newLineCount }, 'Back office: a bank statement was imported')
    return redirect(`/admin/bank-statements?import=${encodeURIComponent(value.id)}`, { headers: session.headers })
  }

  if (intent === 'confirm') {
    const lineIds = form.getAll('line').filter((value): value is string => typeof value === 'string')
    if (lineIds.length === 0) return data(answer(null, 'Tick the payments to record first.'), { status: 400 })
    // Each line is recorded by the transfer command, with its audit row in its own transaction.
    const results = await fromDatabase(context, () => confirmStatementLines(commandContext(context), lineIds, staffActor(context, session.user)))
    const recorded = results.flatMap((result) => (result.outcome === 'recorded' ? [result.transfer] : []))
    const refusals = results.flatMap((result) => (result.outcome === 'refused' ? [statementLineRefusal(result)] : []))
    const receipts = recorded.filter((transfer) => transfer.receiptQueued).length
    const notice =
      recorded.length === 0
        ? null
        : `Recorded ${recorded.length === 1 ? '1 payment' : `${recorded.length} payments`} (${recorded.map((transfer) => transfer.reference).join(', ')}).${receipts > 0 ? ` ${receipts === 1 ? 'A receipt is' : `${receipts} receipts are`} on the way.` : ''}${surplusText(recorded)}`
    return data(answer(notice, null, refusals), { status: recorded.length === 0 ? 400 : 200 })
  }

  if (intent === 'assign') {
    const assigned = await attemptChange(context, () =>
      assignStatementLine(commandContext(context), formText(form, 'line'), formText(form, 'registration'), staffActor(context, session.user)),
    )
    if (!assigned.ok) return data(answer(null, assigned.message), { status: 400 })
    const { reference, after, receiptQueued } = assigned.value
    return answer(
      `Recorded ${formatRand(assigned.value.payment.amountCents)} for registration ${reference}: ${receiptQueued ? 'paid in full, the receipt is on the way.' : after.outstandingCents > 0 ? `${formatRand(after.outstandingCents)} still outstanding.` : 'nothing was outstanding.'}${surplusText([assigned.value])}`,
    )
  }

  if (intent === 'split') {
    // Rows left empty are not parts; an amount that does not read is refused by the schema as no amount.
    const references = form.getAll('splitReference').map(String)
    const amounts = form.getAll('splitAmount').map(String)
    const parts = references.flatMap((reference, index) =>
      reference.trim() === '' && (amounts[index] ?? '').trim() === '' ? [] : [{ reference, amount: amounts[index] ?? '' }],
    )
    const split = await runStaffCommand(context, session.user, splitStatementLine, { lineId: formText(form, 'line'), parts })
    if (!split.ok)
      return data({ ...answer(null, refusalSentence(split)), typedSplit: { line: formText(form, 'line'), references, amounts } }, { status: split.status })
    return answer(
      `Split the line across ${split.value.map((transfer) => `${transfer.reference} (${formatRand(transfer.payment.amountCents)})`).join(', ')}.${split.value.some((transfer) => transfer.receiptQueued) ? ' Receipts for those paid in full are on the way.' : ''}${surplusText(split.value)}`,
    )
  }

  if (intent === 'dismiss') {
    const dismissed = await runStaffCommand(context, session.user, dismissStatementLine, { lineId: formText(form, 'line'), reason: formText(form, 'reason') })
    if (!dismissed.ok) return data(answer(null, refusalSentence(dismissed)), { status: dismissed.status })
    return answer(
      `Dismissed the line of ${formatRand(dismissed.value.amountCents)} on ${dismissed.value.postedOn}: it stays dismissed if the statement is imported again.`,
    )
  }
  return data(answer(null, 'This form does not say what to do. Reload the page and try again.'), { status: 400 })
}

type ShownLine = StatementLineView & { sameAs: string | null }

/** A registration a line may pay, and why it is offered. */
function suggestionText(suggestion: PaymentSuggestion): string {
  const why = suggestion.basis === 'reference-in-text' ? 'its reference is inside the text' : 'it owes this amount and its name is in the text'
  return `${suggestion.registrationReference} (${suggestion.companyName}, ${formatRand(suggestion.outstandingCents)} outstanding: ${why})`
}

function proposalText({ state, sameAs }: ShownLine): string {
  switch (state.kind) {
    case 'recorded':
      return `Recorded for ${[state.registrationReference, ...(state.splitWith ?? [])].join(', ')}${state.recordedBy ? ` by ${state.recordedBy}` : ''}`
    case 'pays-in-full':
      return `Pays ${state.registrationReference} (${state.companyName}) in full`
    case 'part-payment':
      return `Part payment for ${state.registrationReference} (${state.companyName}): ${formatRand(state.outstandingCents)} outstanding`
    case 'surplus':
      return `Overpays ${state.registrationReference} (${state.companyName}) by ${formatRand(state.surplusCents)}: ${formatRand(state.outstandingCents)} outstanding; recorded in full, the surplus is owed back`
    case 'already-paid':
      return `${state.registrationReference} (${state.companyName}) was paid by card: pay it back, then dismiss the line`
    case 'several-references':
      return `Names several registrations (${state.registrationReferences.join(', ')}): assign by hand`
    case 'unmatched':
      return state.suggestions.length === 0
        ? 'No registration reference: assign by hand'
        : `No registration reference as a word; it may pay ${state.suggestions.map(suggestionText).join(', or ')}. Check it, then record it by hand`
    case 'same-as':
      return `The same money as a line ${sameAs}: not recorded twice`
    case 'dismissed':
      return `Dismissed by ${state.dismissedBy}: ${state.reason}`
  }
}

const recordable = (line: StatementLineView) => line.state.kind === 'pays-in-full' || line.state.kind === 'part-payment' || line.state.kind === 'surplus'
const byHand = (line: StatementLineView) => line.state.kind === 'unmatched' || line.state.kind === 'several-references' || line.state.kind === 'already-paid'

// Rows of the split form: the references a line names, then empty rows up to at least three parts.
const SPLIT_ROWS = 3

function lineLabel(line: StatementLineView): string {
  return `${formatRand(line.amountCents)} on ${line.postedOn}`
}

const DECIMAL_SEPARATORS = [
  ['.', '1 234.56 (decimal point)'],
  [',', '1 234,56 (decimal comma)'],
] as const

/** The bank list's value for the bank an import was read as, so the next statement starts with the same bank. */
function chosenBankValue(
  name: string,
  banks: ReadonlyArray<readonly [string, string]>,
  mappings: ReadonlyArray<{ id: string; name: string }>,
): string | undefined {
  const preset = banks.find(([, bankName]) => bankName === name)
  if (preset) return `${PRESET_PREFIX}${preset[0]}`
  const saved = mappings.find((mapping) => mapping.name === name)
  return saved ? `${MAPPING_PREFIX}${saved.id}` : undefined
}

/** A part of a new CSV mapping typed in: its name, or the heading of one of the bank's columns. */
function MappingText({ id, name, label }: { id: string; name: string; label: string }) {
  return (
    <FieldRow id={id} label={label}>
      <input id={id} name={name} autoComplete="off" maxLength={100} />
    </FieldRow>
  )
}

/** A part of a new CSV mapping chosen from a list: the delimiter, the date format, the decimal separator. */
function MappingChoice({
  id,
  name,
  label,
  defaultValue,
  choices,
}: {
  id: string
  name: string
  label: string
  defaultValue: string
  choices: ReadonlyArray<readonly [string, string]>
}) {
  return (
    <FieldRow id={id} label={label}>
      <select id={id} name={name} defaultValue={defaultValue}>
        <Options choices={choices} />
      </select>
    </FieldRow>
  )
}

/** What a checked file would record, with the one button that stores it; nothing is stored before that button. */
function StatementPreviewSection({ pending }: { pending: PendingImport }) {
  const { summary } = pending
  return (
    <section aria-labelledby="preview-heading" className="admin-preview">
      <h2 id="preview-heading">Check {summary.fileName} before importing</h2>
      <dl>
        <dt>Money received</dt>
        <dd>
          {summary.lineCount === 1 ? '1 line' : `${summary.lineCount} lines`}, {formatRand(summary.moneyInCents)}
        </dd>
        <dt>Money paid out (left aside)</dt>
        <dd>
          {summary.debitsSkipped === 1 ? '1 line' : `${summary.debitsSkipped} lines`}, {formatRand(summary.moneyOutCents)}
        </dd>
        <dt>Dates of the money received</dt>
        <dd>{summary.firstDate === summary.lastDate ? summary.firstDate : `${summary.firstDate} to ${summary.lastDate}`}</dd>
        <dt>Running balance</dt>
        <dd>
          {summary.balanceChecked ? 'Checked line by line: every balance follows from the line before it.' : 'Not checked: the file has no balance column.'}
        </dd>
        <dt>Read as</dt>
        <dd>{summary.format === 'ofx' ? 'OFX' : (summary.mappingName ?? 'CSV')}</dd>
      </dl>
      <p>Nothing is recorded until you import it.</p>
      <Form method="post" encType="multipart/form-data" className="form">
        <input type="hidden" name="intent" value="import" />
        <input type="hidden" name="statementName" value={pending.fileName} />
        <input type="hidden" name="statementContent" value={pending.contentBase64} />
        <input type="hidden" name="mapping" value={pending.mapping} />
        {Object.entries(pending.mappingFields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <SubmitButton>Import statement</SubmitButton>
      </Form>
    </section>
  )
}

export default function BankStatements({ loaderData, actionData }: Route.ComponentProps) {
  const { mappings, imports, shownImport, lines, choices } = loaderData
  const proposals = lines.filter(recordable)
  const toSettle = lines.filter(byHand)
  // The next statement most likely comes from the bank of the one shown, else of the latest import.
  const lastCsvImport = shownImport?.mappingName ? shownImport : imports.find((entry) => entry.mappingName)
  const lastBank =
    (lastCsvImport?.mappingName && chosenBankValue(lastCsvImport.mappingName, choices.banks, mappings)) || `${PRESET_PREFIX}${choices.banks[0]![0]}`
  return (
    <>
      <h1>Bank statements</h1>
      <p>
        Import a statement exported from the bank. Lines whose description or reference holds a registration reference are proposed as payments; record them in
        one step. Each line is recorded once, however often a statement is imported.
      </p>
      <AdminMessages notice={actionData?.notice} />
      {actionData?.error || actionData?.refusals.length ? (
        <div className="admin-error" role="alert">
          {actionData.error ? <p>{actionData.error}</p> : null}
          {actionData.refusals.length ? (
            <ul>
              {actionData.refusals.map((refusal) => (
                <li key={refusal}>{refusal}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}

      <section aria-labelledby="lines-heading">
        <h2 id="lines-heading">{shownImport ? `Lines of ${shownImport.fileName}` : 'Lines not yet recorded'}</h2>
        {shownImport ? (
          <p>
            Imported by {shownImport.importedBy} on {formatAdminMinute(shownImport.importedAt)}: {shownImport.lineCount} money received,{' '}
            {shownImport.newLineCount === shownImport.lineCount ? 'all new' : `${shownImport.newLineCount} new (the others were imported before)`}
            {shownImport.debitsSkipped ? `; ${shownImport.debitsSkipped} payments out left aside` : ''}.{' '}
            <Link to="/admin/bank-statements">Every line not yet recorded</Link>
          </p>
        ) : null}
        {lines.length === 0 ? (
          <p>No statement lines are waiting.</p>
        ) : (
          <Form method="post">
            <input type="hidden" name="intent" value="confirm" />
            <AdminTable
              caption="Statement lines and what each proposes"
              scrollLabelledBy="lines-heading"
              columns={['Record', 'Date', 'Amount', 'Description and reference', 'Proposal']}
            >
              {lines.map((line) => (
                <tr key={line.id}>
                  <td>
                    {recordable(line) ? (
                      <label>
                        <input type="checkbox" name="line" value={line.id} defaultChecked={line.state.kind === 'pays-in-full'} />
                        <span className="visually-hidden">Record the line of {lineLabel(line)}</span>
                      </label>
                    ) : null}
                  </td>
                  <td>{line.postedOn}</td>
                  <td>{formatRand(line.amountCents)}</td>
                  <td>
                    {line.description}
                    {line.reference ? ` / ${line.reference}` : ''}
                  </td>
                  <td>{proposalText(line)}</td>
                </tr>
              ))}
            </AdminTable>
            {proposals.length > 0 ? (
              <p>
                <SubmitButton>Record the ticked payments</SubmitButton>
              </p>
            ) : null}
          </Form>
        )}
      </section>

      {toSettle.length > 0 ? (
        <section aria-labelledby="assign-heading">
          <h2 id="assign-heading">Settle by hand</h2>
          <p>
            For a line that names no registration, or several: record it against the registration it pays (its whole amount), split it across the registrations
            it pays, or dismiss it with the reason when it pays no registration (bank charges, interest, another business’s income).
          </p>
          {toSettle.map((line) => {
            const label = `${lineLabel(line)} (${line.description || 'no description'})`
            const named = line.state.kind === 'several-references' ? line.state.registrationReferences : []
            const typed = actionData?.typedSplit?.line === line.id ? actionData.typedSplit : undefined
            const rows = typed?.references ?? [...named, ...Array.from({ length: Math.max(0, SPLIT_ROWS - named.length) }, () => '')]
            return (
              <article className="admin-settle" key={line.id} aria-label={`The line of ${label}`}>
                <h3>{label}</h3>
                {line.state.kind !== 'already-paid' ? (
                  <Form method="post" className="form admin-assign">
                    <input type="hidden" name="intent" value="assign" />
                    <input type="hidden" name="line" value={line.id} />
                    <FieldRow id={`assign-${line.id}`} label={`Registration reference for ${label}`}>
                      <input
                        id={`assign-${line.id}`}
                        name="registration"
                        autoComplete="off"
                        required
                        maxLength={20}
                        defaultValue={line.state.kind === 'unmatched' ? line.state.suggestions[0]?.registrationReference : undefined}
                      />
                    </FieldRow>
                    <SubmitButton secondary>Record this line</SubmitButton>
                  </Form>
                ) : null}
                {line.state.kind !== 'already-paid' ? (
                  <Form method="post" className="form" key={typed ? `typed-${typed.amounts.join('|')}` : 'split'}>
                    <input type="hidden" name="intent" value="split" />
                    <input type="hidden" name="line" value={line.id} />
                    <fieldset className="form__group">
                      <legend>Split {lineLabel(line)} across registrations (the amounts add up to the line)</legend>
                      {rows.map((reference, index) => (
                        <div className="admin-split-row" key={`${line.id}-${index}`}>
                          <FieldRow id={`split-${line.id}-reference-${index}`} label={`Registration ${index + 1}`}>
                            <input
                              id={`split-${line.id}-reference-${index}`}
                              name="splitReference"
                              defaultValue={reference}
                              autoComplete="off"
                              maxLength={20}
                            />
                          </FieldRow>
                          <FieldRow id={`split-${line.id}-amount-${index}`} label={`Amount ${index + 1} (R)`}>
                            <input
                              id={`split-${line.id}-amount-${index}`}
                              name="splitAmount"
                              defaultValue={typed?.amounts[index]}
                              inputMode="decimal"
                              autoComplete="off"
                              maxLength={20}
                            />
                          </FieldRow>
                        </div>
                      ))}
                    </fieldset>
                    <SubmitButton secondary>Split this line</SubmitButton>
                  </Form>
                ) : null}
                <Form method="post" className="form admin-assign">
                  <input type="hidden" name="intent" value="dismiss" />
                  <input type="hidden" name="line" value={line.id} />
                  <FieldRow id={`dismiss-${line.id}`} label={`Why ${lineLabel(line)} is no registration’s payment`}>
                    <input id={`dismiss-${line.id}`} name="reason" autoComplete="off" required maxLength={200} />
                  </FieldRow>
                  <SubmitButton secondary>Dismiss this line</SubmitButton>
                </Form>
              </article>
            )
          })}
        </section>
      ) : null}

      {actionData?.preview ? <StatementPreviewSection pending={actionData.preview} /> : null}

      <section aria-labelledby="import-heading">
        <h2 id="import-heading">Import a statement</h2>
        {/* Keyed by the import shown: after an import the form starts afresh, with the new mapping in its list. */}
        <Form method="post" encType="multipart/form-data" className="form" key={shownImport?.id ?? 'none'}>
          <input type="hidden" name="intent" value="preview" />
          <FieldRow id="statement-file" label="Statement file (CSV or OFX)">
            <input id="statement-file" name="statement" type="file" accept=".csv,.ofx,.qfx,.txt,text/csv,application/x-ofx" required />
          </FieldRow>
          <fieldset className="form__group">
            <legend>Which bank’s CSV export it is (not needed for OFX)</legend>
            <FieldRow id="statement-mapping" label="The bank">
              <select id="statement-mapping" name="mapping" defaultValue={lastBank}>
                <Options choices={choices.banks.map(([id, name]) => [`${PRESET_PREFIX}${id}`, name] as const)} />
                <Options choices={mappings.map((mapping) => [`${MAPPING_PREFIX}${mapping.id}`, `${mapping.name} (columns described earlier)`] as const)} />
                <option value={NEW_MAPPING}>Another bank: describe its columns below</option>
              </select>
            </FieldRow>
            <FieldRow id="statement-preset-date-format" label="Date layout, for a bank in the list">
              <select id="statement-preset-date-format" name="presetDateFormat" defaultValue="">
                <option value="">As the bank’s export writes them</option>
                <Options choices={choices.dateFormats} />
              </select>
            </FieldRow>
            <p>For another bank, give the headings as its file writes them; they are saved for the next statement.</p>
            <MappingText id="mapping-name" name="mappingName" label="Name of the new mapping (e.g. the bank and account)" />
            <MappingChoice id="mapping-delimiter" name="delimiter" label="Columns separated by" defaultValue="," choices={choices.delimiters} />
            <MappingText id="mapping-date" name="dateColumn" label="Heading of the date column" />
            <MappingChoice id="mapping-date-format" name="dateFormat" label="Dates written as" defaultValue="yyyy/MM/dd" choices={choices.dateFormats} />
            <MappingText id="mapping-description" name="descriptionColumn" label="Heading of the description column" />
            <MappingText id="mapping-amount" name="amountColumn" label="Heading of the amount column (money received positive)" />
            <p>Or, when the bank writes money in and money out in two columns, leave the amount empty and give both:</p>
            <MappingText id="mapping-money-in" name="moneyInColumn" label="Heading of the money-in column" />
            <MappingText id="mapping-money-out" name="moneyOutColumn" label="Heading of the money-out column" />
            <MappingText id="mapping-fee" name="feeColumn" label="Heading of the charges column (if the bank has one)" />
            <MappingText id="mapping-balance" name="balanceColumn" label="Heading of the balance column (checked line by line, if the bank has one)" />
            <MappingText id="mapping-reference" name="referenceColumn" label="Heading of the reference column (if the bank has one)" />
            <MappingChoice id="mapping-decimal" name="decimalSeparator" label="Amounts written as" defaultValue="." choices={DECIMAL_SEPARATORS} />
          </fieldset>
          <SubmitButton>Check the statement</SubmitButton>
        </Form>
      </section>

      {imports.length > 0 ? (
        <section aria-labelledby="imports-heading">
          <h2 id="imports-heading">Recent imports</h2>
          <ul>
            {imports.map((entry) => (
              <li key={entry.id}>
                <Link to={`/admin/bank-statements?import=${encodeURIComponent(entry.id)}`}>{entry.fileName}</Link>, {formatAdminMinute(entry.importedAt)} by{' '}
                {entry.importedBy}: {entry.lineCount} lines, {entry.newLineCount} new
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <BackOfficeHomeLink />
    </>
  )
}
