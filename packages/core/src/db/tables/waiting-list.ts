/** What an entry of the waiting list is at: waiting its turn, holding offered seats, or done with. */
export type WaitingListState = 'waiting' | 'offered' | 'registered' | 'expired' | 'removed'

/** One visitor waiting for seats of a sold-out event (see the migration). */
export interface WaitingListEntriesTable {
  id: string
  event_id: string
  event_slug: string
  event_title: string
  position: number
  name: string
  company_name: string
  email: string
  tel: string
  seats: number
  attendance: 'venue' | 'online'
  state: WaitingListState
  offer_token_hash: string | null
  offered_until: string | null
  registration_id: string | null
  created_at: string
  updated_at: string
}

/** One change of an entry, by staff (named) or by the site itself (actor_name null). */
export interface WaitingListChangesTable {
  id: string
  entry_id: string
  action: string
  actor_name: string | null
  details_json: string
  at: string
}
