import {
  assignStatementLine,
  confirmStatementLines,
  getStatementImport,
  importBankStatement,
  listStatementImports,
  listStatementMappings,
  STATEMENT_DATE_FORMATS,
  STATEMENT_DELIMITERS,
  statementLines,
  type StatementLineView,
  type StatementMappingInput,
} from '@events/core'
import { formatRand } from '@events/pricing'
import { data, Form, Link, redirect } from 'react-router'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { actingStaff, attemptChange, backOfficeContext } from '../../lib/backoffice.server'
import { fromDatabase } from '../../lib/database.server'
import { requestFactsContext, servicesContext } from '../../lib/services.server'
import type { Route } from './+types/bank-statements'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'

export function meta() {
  return adminMeta('Bank statements')
}

const NEW_MAPPING = 'new'

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const context = backOfficeContext(args.context)
  const importId = new URL(args.request.url).searchParams.get('import') ?? undefined
  const [mappings, imports, shownImport, lines] = await fromDatabase(args.context, () =>
    Promise.all([listStatementMappings(context), listStatementImports(context), importId ? getStatementImport(context, importId) : undefined, statementLines(context, { importId })]),
  )
  if (importId && !shownImport) throw data('No such statement import', { status: 404 })
  // The choices of the mapping form come from the core with the data: the core's code stays on the server.
  const choices = { dateFormats: Object.entries(STATEMENT_DATE_FORMATS), delimiters: Object.entries(STATEMENT_DELIMITERS) }
  return data({ mappings, imports, shownImport: shownImport ?? null, lines, choices }, { headers })
}

type ActionAnswer = { notice: string | null; error: string | null; refusals: string[] }

function answer(notice: string | null, error: string | null = null, refusals: string[] = []): ActionAnswer {
  return { notice, error, refusals }
}

function mappingInput(form: FormData): StatementMappingInput {
  return {
    name: formText(form, 'mappingName'),
    delimiter: formText(form, 'delimiter'),
    dateColumn: formText(form, 'dateColumn'),
    dateFormat: formText(form, 'dateFormat'),
    descriptionColumn: formText(form, 'descriptionColumn'),
    amountColumn: formText(form, 'amountColumn'),
    referenceColumn: formText(form, 'referenceColumn'),
    decimalSeparator: formText(form, 'decimalSeparator'),
  }
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const { context } = args
  const { core, staff: staffAccounts } = context.get(servicesContext)
  const { clientIp, log } = context.get(requestFactsContext)
  const { staff, actor } = actingStaff(session.user)
  const backOffice = backOfficeContext(context)
  const intent = formText(form, 'intent')

  const auditRecorded = async (transfer: Awaited<ReturnType<typeof assignStatementLine>>) => {
    await staffAccounts.recordAudit({
      actor,
      action: 'registration-payment-recorded',
      subjectType: 'registration',
      subjectId: transfer.reference,
      before: transfer.before,
      after: { ...transfer.after, amountCents: transfer.payment.amountCents, receivedOn: transfer.payment.receivedOn, bankReference: transfer.payment.bankReference },
      ipAddress: clientIp,
    })
  }

  if (intent === 'import') {
    const file = form.get('statement')
    if (!(file instanceof File) || file.size === 0) return data(answer(null, 'Choose the statement file exported from the bank (CSV or OFX).'), { status: 400 })
    const chosen = formText(form, 'mapping')
    const mapping = chosen === NEW_MAPPING ? { create: mappingInput(form) } : chosen ? { id: chosen } : undefined
    const content = new Uint8Array(await file.arrayBuffer())
    const imported = await attemptChange(context, () => importBankStatement(backOffice, { fileName: file.name, content, mapping }, staff))
    if (!imported.ok) return data(answer(null, imported.message), { status: 400 })
    const { value } = imported
    await fromDatabase(context, () =>
      staffAccounts.recordAudit({
        actor,
        action: 'bank-statement-imported',
        subjectType: 'bank-statement-import',
        subjectId: value.id,
        after: { fileName: value.fileName, format: value.format, mapping: value.mappingName, lines: value.lineCount, newLines: value.newLineCount },
        ipAddress: clientIp,
      }),
    )
    log.info({ importId: value.id, lines: value.lineCount, newLines: value.newLineCount }, 'Back office: a bank statement was imported')
    return redirect(`/admin/bank-statements?import=${encodeURIComponent(value.id)}`, { headers: session.headers })
  }

  if (intent === 'confirm') {
    const lineIds = form.getAll('line').filter((value): value is string => typeof value === 'string')
    if (lineIds.length === 0) return data(answer(null, 'Tick the payments to record first.'), { status: 400 })
    const results = await fromDatabase(context, () => confirmStatementLines(backOffice, lineIds, staff))
    const recorded = results.flatMap((result) => (result.outcome === 'recorded' ? [result.transfer] : []))
    await fromDatabase(context, () => Promise.all(recorded.map(auditRecorded)))
    if (recorded.length > 0) core.outbox.wake()
    const refusals = results.flatMap((result) => (result.outcome === 'refused' ? [result.message] : []))
    const receipts = recorded.filter((transfer) => transfer.receiptQueued).length
    const notice =
      recorded.length === 0
        ? null
        : `Recorded ${recorded.length === 1 ? '1 payment' : `${recorded.length} payments`} (${recorded.map((transfer) => transfer.reference).join(', ')}).${receipts > 0 ? ` ${receipts === 1 ? 'A receipt is' : `${receipts} receipts are`} on the way.` : ''}`
    return data(answer(notice, null, refusals), { status: recorded.length === 0 ? 400 : 200 })
  }

  if (intent === 'assign') {
    const assigned = await attemptChange(context, () => assignStatementLine(backOffice, formText(form, 'line'), formText(form, 'registration'), staff))
    if (!assigned.ok) return data(answer(null, assigned.message), { status: 400 })
    await fromDatabase(context, () => auditRecorded(assigned.value))
    core.outbox.wake()
    const { reference, after, receiptQueued } = assigned.value
    return answer(
      `Recorded ${formatRand(assigned.value.payment.amountCents)} for registration ${reference}: ${receiptQueued ? 'paid in full, the receipt is on the way.' : `${formatRand(after.outstandingCents)} still outstanding.`}`,
    )
  }
  return data(answer(null, 'This form does not say what to do. Reload the page and try again.'), { status: 400 })
}

const dayFormat = new Intl.DateTimeFormat('en-ZA', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Johannesburg' })

function proposalText({ state }: StatementLineView): string {
  switch (state.kind) {
    case 'recorded':
      return `Recorded for ${state.registrationReference}${state.recordedBy ? ` by ${state.recordedBy}` : ''}`
    case 'pays-in-full':
      return `Pays ${state.registrationReference} (${state.companyName}) in full`
    case 'part-payment':
      return `Part payment for ${state.registrationReference} (${state.companyName}): ${formatRand(state.outstandingCents)} outstanding`
    case 'surplus':
      return `${formatRand(state.surplusCents)} more than the ${formatRand(state.outstandingCents)} outstanding on ${state.registrationReference} (${state.companyName}): not recordable; settle the surplus with the registrant`
    case 'already-paid':
      return `${state.registrationReference} (${state.companyName}) is already paid in full`
    case 'several-references':
      return `Names several registrations (${state.registrationReferences.join(', ')}): assign by hand`
    case 'unmatched':
      return 'No registration reference: assign by hand'
  }
}

const recordable = (line: StatementLineView) => line.state.kind === 'pays-in-full' || line.state.kind === 'part-payment'
const assignable = (line: StatementLineView) => line.state.kind === 'unmatched' || line.state.kind === 'several-references'

function lineLabel(line: StatementLineView): string {
  return `${formatRand(line.amountCents)} on ${line.postedOn}`
}

export default function BankStatements({ loaderData, actionData }: Route.ComponentProps) {
  const { mappings, imports, shownImport, lines, choices } = loaderData
  const proposals = lines.filter(recordable)
  const toAssign = lines.filter(assignable)
  return (
    <>
      <h1>Bank statements</h1>
      <p>
        Import a statement exported from the bank. Lines whose description or reference holds a registration reference are proposed as payments; record
        them in one step. Each line is recorded once, however often a statement is imported.
      </p>
      {actionData?.notice ? (
        <p className="admin-notice" role="status">
          {actionData.notice}
        </p>
      ) : null}
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
            Imported by {shownImport.importedBy} on {dayFormat.format(new Date(shownImport.importedAt))}: {shownImport.lineCount} money received,{' '}
            {shownImport.newLineCount === shownImport.lineCount ? 'all new' : `${shownImport.newLineCount} new (the others were imported before)`}
            {shownImport.debitsSkipped ? `; ${shownImport.debitsSkipped} payments out left aside` : ''}. <Link to="/admin/bank-statements">Every line not yet recorded</Link>
          </p>
        ) : null}
        {lines.length === 0 ? (
          <p>No statement lines are waiting.</p>
        ) : (
          <Form method="post">
            <input type="hidden" name="intent" value="confirm" />
            <div className="admin-table-scroll" role="region" aria-labelledby="lines-heading" tabIndex={0}>
              <table className="admin-table">
                <caption className="visually-hidden">Statement lines and what each proposes</caption>
                <thead>
                  <tr>
                    <th scope="col">Record</th>
                    <th scope="col">Date</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Description and reference</th>
                    <th scope="col">Proposal</th>
                  </tr>
                </thead>
                <tbody>
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
                </tbody>
              </table>
            </div>
            {proposals.length > 0 ? (
              <p>
                <button type="submit" className="button">
                  Record the ticked payments
                </button>
              </p>
            ) : null}
          </Form>
        )}
      </section>

      {toAssign.length > 0 ? (
        <section aria-labelledby="assign-heading">
          <h2 id="assign-heading">Assign by hand</h2>
          <p>For a line that names no registration, or several, enter the registration it pays. The line’s whole amount is recorded.</p>
          {toAssign.map((line) => (
            <Form method="post" className="form admin-assign" key={line.id}>
              <input type="hidden" name="intent" value="assign" />
              <input type="hidden" name="line" value={line.id} />
              <div className="form__field">
                <label htmlFor={`assign-${line.id}`}>
                  Registration reference for {lineLabel(line)} ({line.description || 'no description'})
                </label>
                <input id={`assign-${line.id}`} name="registration" autoComplete="off" required maxLength={20} />
              </div>
              <button type="submit" className="button button--secondary">
                Record this line
              </button>
            </Form>
          ))}
        </section>
      ) : null}

      <section aria-labelledby="import-heading">
        <h2 id="import-heading">Import a statement</h2>
        {/* Keyed by the import shown: after an import the form starts afresh, with the new mapping in its list. */}
        <Form method="post" encType="multipart/form-data" className="form" key={shownImport?.id ?? 'none'}>
          <input type="hidden" name="intent" value="import" />
          <div className="form__field">
            <label htmlFor="statement-file">Statement file (CSV or OFX)</label>
            <input id="statement-file" name="statement" type="file" accept=".csv,.ofx,.qfx,.txt,text/csv,application/x-ofx" required />
          </div>
          <fieldset className="form__group">
            <legend>How to read a CSV file (not needed for OFX)</legend>
            <div className="form__field">
              <label htmlFor="statement-mapping">The bank’s columns</label>
              <select id="statement-mapping" name="mapping" defaultValue={mappings[0]?.id ?? NEW_MAPPING}>
                {mappings.map((mapping) => (
                  <option key={mapping.id} value={mapping.id}>
                    {mapping.name}
                  </option>
                ))}
                <option value={NEW_MAPPING}>A new mapping, described below</option>
              </select>
            </div>
            <p>For a new mapping, give the headings as the bank’s file writes them; it is saved for the next statement.</p>
            <div className="form__field">
              <label htmlFor="mapping-name">Name of the new mapping (e.g. the bank and account)</label>
              <input id="mapping-name" name="mappingName" autoComplete="off" maxLength={100} />
            </div>
            <div className="form__field">
              <label htmlFor="mapping-delimiter">Columns separated by</label>
              <select id="mapping-delimiter" name="delimiter" defaultValue=",">
                {choices.delimiters.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </div>
            <div className="form__field">
              <label htmlFor="mapping-date">Heading of the date column</label>
              <input id="mapping-date" name="dateColumn" autoComplete="off" maxLength={100} />
            </div>
            <div className="form__field">
              <label htmlFor="mapping-date-format">Dates written as</label>
              <select id="mapping-date-format" name="dateFormat" defaultValue="yyyy/MM/dd">
                {choices.dateFormats.map(([value, example]) => (
                  <option key={value} value={value}>
                    {example}
                  </option>
                ))}
              </select>
            </div>
            <div className="form__field">
              <label htmlFor="mapping-description">Heading of the description column</label>
              <input id="mapping-description" name="descriptionColumn" autoComplete="off" maxLength={100} />
            </div>
            <div className="form__field">
              <label htmlFor="mapping-amount">Heading of the amount column (money received positive)</label>
              <input id="mapping-amount" name="amountColumn" autoComplete="off" maxLength={100} />
            </div>
            <div className="form__field">
              <label htmlFor="mapping-reference">Heading of the reference column (if the bank has one)</label>
              <input id="mapping-reference" name="referenceColumn" autoComplete="off" maxLength={100} />
            </div>
            <div className="form__field">
              <label htmlFor="mapping-decimal">Amounts written as</label>
              <select id="mapping-decimal" name="decimalSeparator" defaultValue=".">
                <option value=".">1 234.56 (decimal point)</option>
                <option value=",">1 234,56 (decimal comma)</option>
              </select>
            </div>
          </fieldset>
          <button type="submit" className="button">
            Import statement
          </button>
        </Form>
      </section>

      {imports.length > 0 ? (
        <section aria-labelledby="imports-heading">
          <h2 id="imports-heading">Recent imports</h2>
          <ul>
            {imports.map((entry) => (
              <li key={entry.id}>
                <Link to={`/admin/bank-statements?import=${encodeURIComponent(entry.id)}`}>{entry.fileName}</Link>, {dayFormat.format(new Date(entry.importedAt))} by{' '}
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
