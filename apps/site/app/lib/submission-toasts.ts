// Kept apart from toast.tsx, which every page loads for its Toaster, so only the lazily loaded forms carry it.
import { useEffect, useRef } from 'react'
import { toast } from './toast'

interface SubmissionToasts<Outcome> {
  loading: string
  success: string
  failure: (outcome: Outcome) => string
  /** Runs once for each successful answer, after its toast. */
  onSuccess?: () => void
}

/**
 * The toasts of a form posted in the background: the loading toast while it is sent, replaced in place by the
 * success or failure toast of each new answer; a new post dismisses the toasts of the one before, so an old
 * failure never stands beside a new success. Returns whether the post is under way.
 */
export function useSubmissionToasts<Outcome extends { status: string }>(
  fetcher: { state: string; data?: Outcome | undefined },
  { loading, success, failure, onSuccess }: SubmissionToasts<Outcome>,
): boolean {
  const loadingToast = useRef<string | undefined>(undefined)
  const answerToast = useRef<string | undefined>(undefined)
  const handled = useRef<Outcome | undefined>(undefined)
  const busy = fetcher.state !== 'idle'

  useEffect(() => {
    if (!busy || loadingToast.current !== undefined) return
    if (answerToast.current !== undefined) toast.dismiss(answerToast.current)
    answerToast.current = undefined
    loadingToast.current = toast.loading(loading)
  }, [busy, loading])

  useEffect(() => {
    const outcome = fetcher.data
    if (busy || !outcome || handled.current === outcome) return
    handled.current = outcome
    const replaced = loadingToast.current
    loadingToast.current = undefined
    if (outcome.status === 'success') {
      answerToast.current = toast.success(success, replaced)
      onSuccess?.()
    } else {
      answerToast.current = toast.error(failure(outcome), replaced)
    }
    // Only a new answer shows a toast (handled guards it): new messages or callbacks of later renders show none.
  }, [busy, fetcher.data, success, failure, onSuccess])

  return busy
}
