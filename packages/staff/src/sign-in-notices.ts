import type { StaffKysely } from './db/database.ts'

export type NoticeKind = 'code-failures'

/**
 * Takes the right to send a member one notice of this kind: true when none went out in the last `intervalSeconds`.
 * One conditional write decides it, so two instances seeing the same failures at once send one e-mail between them.
 */
export async function claimNotice(kysely: StaffKysely, userId: string, kind: NoticeKind, now: Date, intervalSeconds: number): Promise<boolean> {
  const sentAt = now.toISOString()
  const result = await kysely
    .insertInto('staff_sign_in_notices')
    .values({ user_id: userId, kind, sent_at: sentAt })
    .onConflict((conflict) =>
      conflict
        .columns(['user_id', 'kind'])
        .doUpdateSet({ sent_at: sentAt })
        .where('staff_sign_in_notices.sent_at', '<=', new Date(now.getTime() - intervalSeconds * 1000).toISOString()),
    )
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
}
