/** The VAT period a request asks for, or this calendar month by the business clock. */
export function requestedPeriod(url: URL, today: string): { from: string; to: string } {
  const monthStart = `${today.slice(0, 8)}01`
  const [year, month] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))]
  const monthEnd = `${today.slice(0, 8)}${String(new Date(Date.UTC(year, month, 0)).getUTCDate()).padStart(2, '0')}`
  return { from: url.searchParams.get('from') ?? monthStart, to: url.searchParams.get('to') ?? monthEnd }
}
