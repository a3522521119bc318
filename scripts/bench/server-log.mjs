/** The server's own time for each request id, from the JSON request lines of its log. */
export function serverTimes(log) {
  const times = new Map()
  for (const line of log.split('\n')) {
    if (!line.includes('"responseTime"')) continue
    const entry = JSON.parse(line)
    if (entry.req?.id) times.set(entry.req.id, entry.responseTime)
  }
  return times
}
