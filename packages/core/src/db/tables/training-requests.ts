/** A request for in-house or online training. */
export interface TrainingRequestsTable {
  id: string
  kind: string
  name: string
  email: string
  phone: string
  organization: string
  message: string
  created_at: string
}
