import { ageingRows, sendStatement, statementOfAccount } from '@events/core'
import { formatRand } from '@events/pricing'
import { data, Form, Link } from 'react-router'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { AdminTable } from '../../components/admin/AdminTable'
import { AgeingTable } from '../../components/admin/AgeingTable'
import { AmountCell } from '../../components/admin/AmountCell'
import { SubmitButton } from '../../components/admin/FormControls'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { readBackOffice, refusalSentence, runStaffCommand } from '../../lib/backoffice.server'
import type { Route } from './+types/statements'

export function meta() {
  return adminMeta('Statements of account')
}

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const company = (new URL(args.request.url).searchParams.get('company') ?? '').trim()
  const statement = company === '' ? undefined : await readBackOffice(args.context, (backOffice) => statementOfAccount(backOffice, company))
  return data(
    { company, statement: statement ? { ...statement, issuedAt: statement.issuedAt.toISOString(), ageing: ageingRows(statement.ageing) } : null },
    { headers },
  )
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const sent = await runStaffCommand(args.context, session.user, sendStatement, { companyName: formText(form, 'companyName') })
  if (!sent.ok) return data({ notice: null, error: refusalSentence(sent) }, { status: sent.status })
  return { notice: `The statement of ${sent.value.companyName} (${formatRand(sent.value.owedCents)} owed) is on its way to ${sent.value.email}.`, error: null }
}

export default function Statements({ loaderData, actionData }: Route.ComponentProps) {
  const { company, statement } = loaderData
  return (
    <>
      <h1>Statements of account</h1>
      <p>
        A company’s statement lists all its registrations’ and sponsorship deals’ tax invoices, credit notes and payments with the running balance and what is
        owed.
      </p>
      <Form method="get" className="form admin-search" role="search">
        <label htmlFor="statement-company">Company name, as on its registrations or deals</label>
        <input id="statement-company" name="company" defaultValue={company} autoComplete="off" />
        <button type="submit" className="button">
          Show the statement
        </button>
      </Form>
      <AdminMessages notice={actionData?.notice} error={actionData?.error} />
      {company === '' ? null : statement ? (
        <section aria-labelledby="statement-heading">
          <h2 id="statement-heading">{statement.companyName}</h2>
          <p>
            Invoiced {formatRand(statement.invoicedCents)}, credited {formatRand(statement.creditedCents)}, paid {formatRand(statement.paidCents)}:{' '}
            <strong>{formatRand(statement.owedCents)} owed</strong>.
          </p>
          <AdminTable
            caption={`Statement of account of ${statement.companyName}`}
            scrollLabelledBy="statement-heading"
            columns={[
              'Date',
              'Registration or deal',
              'Document or payment',
              { label: 'Debit', numeric: true },
              { label: 'Credit', numeric: true },
              { label: 'Balance', numeric: true },
            ]}
          >
            {statement.entries.map((entry, index) => (
              <tr key={index}>
                <td>{entry.day}</td>
                <td>
                  <Link to={entry.dealId ? `/admin/sponsorship#deal-${entry.dealId}` : `/admin/registrations/${entry.registrationReference}`}>
                    {entry.registrationReference}
                  </Link>
                </td>
                <th scope="row">{entry.description}</th>
                {entry.debitCents > 0 ? <AmountCell cents={entry.debitCents} /> : <td />}
                {entry.creditCents > 0 ? <AmountCell cents={entry.creditCents} /> : <td />}
                <AmountCell cents={entry.balanceCents} />
              </tr>
            ))}
          </AdminTable>
          <AgeingTable caption="Age of what is owed, from each registration’s or deal’s first tax invoice" rows={statement.ageing} />
          <p>
            <a href={`/admin/statements/statement.pdf?company=${encodeURIComponent(statement.companyName)}`} download>
              Download the statement of {statement.companyName} (PDF)
            </a>
          </p>
          <Form method="post">
            <input type="hidden" name="companyName" value={statement.companyName} />
            <SubmitButton secondary>E-mail the statement to {statement.email}</SubmitButton>
          </Form>
        </section>
      ) : (
        <p role="alert">No registration or invoiced sponsorship deal names the company {company}.</p>
      )}
    </>
  )
}
