import type { SiteSettingsQueryResult } from '@events/content/browser'
import { TermList, type Term } from './TermList'

type BankDetails = NonNullable<SiteSettingsQueryResult>['bankDetails']

/** The company's bank account as a description list, with the payment reference to quote once there is one. */
export function BankDetailsList({ bank, reference }: { bank: BankDetails; reference?: string }) {
  const terms: Term[] = [
    ['Bank', bank?.bankName],
    ['Account name', bank?.accountName],
    ['Account number', bank?.accountNumber],
    ['Branch', bank?.branch],
    ['Branch code', bank?.branchCode],
    ['Swift code', bank?.swiftCode],
    ...(reference ? [['Payment reference', reference] as const] : []),
  ]
  return <TermList className="bank-details" terms={terms} />
}
