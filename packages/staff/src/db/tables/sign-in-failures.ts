/** Failed sign-ins per e-mail address since window_start: the per-account limit better-auth lacks. */
export interface StaffSignInFailuresTable {
  email: string
  failures: number
  window_start: string
}
