import { findQuote } from '@events/core'
import { data, Form, Link } from 'react-router'
import { Amount } from '../../components/Amount'
import { TermList } from '../../components/TermList'
import { AdminTime } from '../../components/admin/AdminTime'
import { adminMeta } from '../../lib/admin-meta'
import { requireStaffMember } from '../../lib/admin.server'
import { readBackOffice } from '../../lib/backoffice.server'
import type { Route } from './+types/quotes'

export function meta() {
  return adminMeta('Quotations')
}

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const number = (new URL(args.request.url).searchParams.get('number') ?? '').trim()
  const quote = number === '' ? undefined : await readBackOffice(args.context, (backOffice) => findQuote(backOffice, number))
  return data({ number, quote: quote ?? null }, { headers })
}

export default function Quotes({ loaderData }: Route.ComponentProps) {
  const { number, quote } = loaderData
  return (
    <>
      <h1>Quotations</h1>
      <p>Visitors download quotations from an event’s Register tab before they register; a quotation holds no seat. Find one by its number.</p>
      <Form method="get" className="form admin-search" role="search">
        <label htmlFor="quote-number">Quotation number</label>
        <input id="quote-number" name="number" defaultValue={number} placeholder="Q-000001" autoComplete="off" />
        <button type="submit" className="button">
          Find
        </button>
      </Form>
      {number === '' ? null : quote ? (
        <section aria-labelledby="quote-heading">
          <h2 id="quote-heading">Quotation {quote.number}</h2>
          <TermList
            className="admin-facts"
            terms={[
              ['Event', quote.eventTitle],
              ['Company', quote.companyName || 'Not named'],
              ['Total (incl. VAT)', <Amount key="total" cents={quote.totalCents} />],
              ['Issued', <AdminTime key="issued" iso={quote.issuedAt} precision="day" />],
              ['Valid until', <AdminTime key="valid" iso={new Date(new Date(quote.validUntil).getTime() - 1).toISOString()} precision="day" />],
              [
                'Converted',
                quote.registrations.length === 0 ? (
                  'Not yet: no registration names this quotation'
                ) : (
                  <span key="converted">
                    {quote.registrations.map((registration, index) => (
                      <span key={registration.reference}>
                        {index > 0 ? ', ' : ''}
                        <Link to={`/admin/registrations/${registration.reference}`}>{registration.reference}</Link> ({registration.companyName})
                      </span>
                    ))}
                  </span>
                ),
              ],
            ]}
          />
          <p>
            <a href={`/admin/quotes/${quote.number}.pdf`} download>
              Download quotation {quote.number} (PDF)
            </a>
          </p>
        </section>
      ) : (
        <p role="alert">No quotation has the number {number}.</p>
      )}
    </>
  )
}
