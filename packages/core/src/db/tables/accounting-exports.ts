/** A setting staff keep in the back office (`name` is its key, `value` its text), with who changed it last and when. */
export interface BackOfficeSettingsTable {
  name: string
  value: string
  updated_by_name: string
  updated_at: string
}

/**
 * A document an accounting export carried: the package's file (`xero`, `sage`), what it is (`tax-invoice`,
 * `credit-note`, `payment`, `refund`) and its key (the document's number, or the payment's or refund's id).
 */
export interface AccountingExportedDocumentsTable {
  package: string
  kind: string
  document_key: string
  exported_at: string
  exported_by_name: string
}
