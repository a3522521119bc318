/** A pass's QR code, as the server drew it (SVG markup from the QR library, no visitor text in it), with its code. */
export function PassQr({ svg, code }: { svg: string; code: string }) {
  return <div className="pass-qr" role="img" aria-label={`QR code of pass ${code}`} dangerouslySetInnerHTML={{ __html: svg }} />
}
