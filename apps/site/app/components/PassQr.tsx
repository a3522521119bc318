import type { QrPath } from '@events/core'

/** A pass's QR code, drawn from the path the server computed, with its code as its name. */
export function PassQr({ qr, code }: { qr: QrPath; code: string }) {
  return (
    <svg className="pass-qr" viewBox={`0 0 ${qr.size} ${qr.size}`} shapeRendering="crispEdges" role="img" aria-label={`QR code of pass ${code}`}>
      <rect width={qr.size} height={qr.size} fill="#ffffff" />
      <path d={qr.path} fill="#000000" />
    </svg>
  )
}
