import { formatRand } from '@events/pricing'

/** An amount in rands as visitors read it ("R 34 950.00"), kept on one line however narrow the screen. */
export function Amount({ cents }: { cents: number }) {
  return <span className="amount">{formatRand(cents)}</span>
}
