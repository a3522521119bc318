/**
 * Runs `round` now and then every `intervalMs` in the background, never two at once; a failed round is logged and
 * tried again at the next. `stop()` waits for a round under way, so call it before closing the database.
 */
export function startRecurringRound(
  name: string,
  round: () => Promise<void>,
  options: { intervalMs: number; log: (line: string) => void },
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined
  const run = () => {
    running ??= round()
      .catch((error: unknown) => options.log(`${name}: round failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        running = undefined
      })
  }
  const timer = setInterval(run, options.intervalMs)
  timer.unref()
  run()
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
