import { watch } from 'node:fs'

/** Options for {@link watchSources}. */
export interface WatchSourcesOptions {
  /** The folder watched, with its subfolders. */
  dir: string
  /** Which changed files count, by their path relative to `dir`. */
  include: (relativePath: string) => boolean
  /** Runs after the saves settle; never twice at once. */
  run: () => Promise<void>
  /** How long to wait after a save for more. Default 200 ms: an editor's save is often several writes and a rename. */
  debounceMs?: number
}

/**
 * Calls `run` once per burst of saves under `dir`. A save while `run` is busy queues one more run after it, so the
 * last save is always seen. Returns a function that stops watching.
 */
export function watchSources({ dir, include, run, debounceMs = 200 }: WatchSourcesOptions): () => void {
  let timer: NodeJS.Timeout | undefined
  let running = false
  let pending = false

  async function runNow(): Promise<void> {
    if (running) {
      pending = true
      return
    }
    running = true
    try {
      await run()
    } finally {
      running = false
      if (pending) {
        pending = false
        void runNow()
      }
    }
  }

  const watcher = watch(dir, { recursive: true }, (_event, fileName) => {
    if (fileName === null || !include(fileName.toString())) return
    clearTimeout(timer)
    timer = setTimeout(() => void runNow(), debounceMs)
  })
  return () => {
    clearTimeout(timer)
    watcher.close()
  }
}
