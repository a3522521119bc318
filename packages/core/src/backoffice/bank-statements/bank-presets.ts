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
  // Standard Bank's legacy internet banking export: no heading row; an account record, an OPEN record, one HIST
  // record per transaction (the record type, the date as 20250305, an empty field, the signed amount, the
  // description and the payer's reference), and a CLOSE record. No running balance per line to follow.
  'standard-bank-hist': {
    name: 'Standard Bank (legacy HIST export)',
    columns: {
      delimiter: ',',
      dateColumn: 'Date',
      dateFormat: 'yyyyMMdd',
      descriptionColumn: 'Description',
      amountColumn: 'Amount',
      referenceColumn: 'Reference',
      decimalSeparator: '.',
      records: { type: 'HIST', headings: ['Record', 'Date', 'Unused', 'Amount', 'Description', 'Reference'] },
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
  // Capitec Business, transaction history as CSV: numbered lines with the posting and transaction dates as
  // 2025-03-05, the payer's text (with the reference they typed) in Description, money in under Money In, money out
  // under Money Out and charges under Fee (both written negative), and the balance after each line.
  capitec: {
    name: 'Capitec',
    columns: {
      delimiter: ',',
      dateColumn: 'Posting Date',
      dateFormat: 'yyyy-MM-dd',
      descriptionColumn: 'Description',
      amountColumn: '',
      moneyInColumn: 'Money In',
      moneyOutColumn: 'Money Out',
      referenceColumn: '',
      decimalSeparator: '.',
      feeColumn: 'Fee',
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
