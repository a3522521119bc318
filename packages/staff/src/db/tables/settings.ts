/** Back-office settings an owner changes, one row per key, the value as JSON. */
export interface StaffSettingsTable {
  key: string
  value_json: string
  updated_at: string
}
