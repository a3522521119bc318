/** One row per running instance: when its readiness check last wrote to the database. */
export interface ReadinessChecksTable {
  instance: string
  checked_at: string
}
