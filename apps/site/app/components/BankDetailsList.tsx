import type { SiteSettingsQueryResult } from '@events/content/browser'
import { Fragment } from 'react'

type BankDetails = NonNullable<SiteSettingsQueryResult>['bankDetails']

/** The company's bank account as a description list, with the payment reference to quote once there is one. */
export function BankDetailsList({ bank, reference }: { bank: BankDetails; reference?: string }) {
  const rows: Array<[string, string | null | undefined]> = [
    ['Bank', bank?.bankName],
    ['Account name', bank?.accountName],
    ['Account number', bank?.accountNumber],
    ['Branch', bank?.branch],
    ['Branch code', bank?.branchCode],
    ['Swift code', bank?.swiftCode],
    ...(reference ? [['Payment reference', reference] as [string, string]] : []),
  ]
  return (
    <dl className="bank-details">
      {rows.map(([label, value]) => (
        <Fragment key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  )
}
