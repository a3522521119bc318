import { watch } from 'node:fs'
import path from 'node:path'

/** A watch on a dataset file; close() ends it. */
export interface DatasetWatch {
  close(): void
}

/**
 * Calls onChange after the dataset file changes on disk: written in place, or replaced by a rename (how editors and
 * `sanity dataset export` write it), so the directory is watched rather than the file. Bursts of events from one
 * save are told once, after they settle.
 */
export function watchDataset(datasetPath: string, onChange: () => void, { settleMs = 50 } = {}): DatasetWatch {
  const fileName = path.basename(datasetPath)
  let timer: ReturnType<typeof setTimeout> | undefined
  const watcher = watch(path.dirname(datasetPath), { persistent: false }, (_event, changed) => {
    if (changed !== null && changed !== fileName) return
    clearTimeout(timer)
    timer = setTimeout(onChange, settleMs)
  })
  return {
    close() {
      clearTimeout(timer)
      watcher.close()
    },
  }
}
