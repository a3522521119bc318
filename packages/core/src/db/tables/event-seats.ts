/** The row a registration's transaction writes to take its turn at an event's limited seats (see the migration). */
export interface EventSeatsTable {
  event_id: string
  claimed_at: string
}
