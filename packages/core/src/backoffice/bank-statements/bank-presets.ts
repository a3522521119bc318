import type { StatementColumns } from './parse-csv.ts'

/**
 * How each South African bank's CSV export of an account's transactions is laid out, so staff pick their bank rather
 * than describe its columns. Headings are matched in any case; the rows above the heading (account details, opening
 * balance) are passed over; balance rows between or below the transactions, and each line's running balance, are
 * checked, so a line missing or misread refuses the file.
 */
export const BANK_PRESETS = {
  // FNB Online Banking, "Download transactions" as CSV: the account's details and opening balance above the heading,
  // one signed amount column (money out negative), dates as 2025/03/05, the reference inside the description.
  fnb: {
    name: 'FNB',
    columns: {
      delimiter: ',',
      dateColumn: 'Date',
      dateFormat: 'yyyy/MM/dd',
      descriptionColumn: 'Description',
      amountColumn: 'Amount',
      referenceColumn: '',
      decimalSeparator: '.',
      balanceColumn: 'Balance',
    },
  },
  // Standard Bank Business Online, transaction history as CSV: money out under Payments, money in under Deposits,
  // a balance brought forward as the first line, dates as 05/03/2025.
  'standard-bank': {
    name: 'Standard Bank',
    columns: {
      delimiter: ',',
      dateColumn: 'Date',
      dateFormat: 'dd/MM/yyyy',
      descriptionColumn: 'Description',
      amountColumn: '',
      moneyInColumn: 'Deposits',
      moneyOutColumn: 'Payments',
      referenceColumn: 'Reference',
      decimalSeparator: '.',
      balanceColumn: 'Balance',
    },
  },
  // Absa Online, statement as CSV: Debit Amount and Credit Amount beside a Charge column, dates as 05/03/2025.
  absa: {
    name: 'Absa',
    columns: {
      delimiter: ',',
      dateColumn: 'Date',
      dateFormat: 'dd/MM/yyyy',
      descriptionColumn: 'Transaction Description',
      amountColumn: '',
      moneyInColumn: 'Credit Amount',
      moneyOutColumn: 'Debit Amount',
      referenceColumn: '',
      decimalSeparator: '.',
      feeColumn: 'Charge',
      balanceColumn: 'Balance',
    },
  },
  // Nedbank Money / NetBank Business, transactions as CSV: Debits(R) and Credits(R) beside Fees(R), numbered lines,
  // dates as 5 Mar 2025, opening and closing balances as lines of their own.
  nedbank: {
    name: 'Nedbank',
    columns: {
      delimiter: ',',
      dateColumn: 'Date',
      dateFormat: 'd MMM yyyy',
      descriptionColumn: 'Description',
      amountColumn: '',
      moneyInColumn: 'Credits(R)',
      moneyOutColumn: 'Debits(R)',
      referenceColumn: '',
      decimalSeparator: '.',
      feeColumn: 'Fees(R)',
      balanceColumn: 'Balance(R)',
    },
  },
  // Capitec Business, transaction history as CSV: one signed Amount column, the posting date as 05/03/2025, the
  // payer's text (with the reference they typed) in Description.
  capitec: {
    name: 'Capitec',
    columns: {
      delimiter: ',',
      dateColumn: 'Posting Date',
      dateFormat: 'dd/MM/yyyy',
      descriptionColumn: 'Description',
      amountColumn: 'Amount',
      referenceColumn: '',
      decimalSeparator: '.',
      balanceColumn: 'Balance',
    },
  },
} as const satisfies Record<string, { name: string; columns: StatementColumns }>

export type BankPresetId = keyof typeof BANK_PRESETS

/** Whether a form's value names a bank preset. */
export function isBankPresetId(value: string): value is BankPresetId {
  return Object.hasOwn(BANK_PRESETS, value)
}

/** The banks staff choose from, in the form's order: `[id, name]`. */
export const BANK_PRESET_CHOICES = Object.entries(BANK_PRESETS).map(([id, preset]) => [id, preset.name] as const)
