import { useEffect, useRef, useState } from 'react'

// The browser's own barcode reader, where it has one (Chrome on Android and macOS); not in TypeScript's DOM types yet.
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>
}
declare global {
  interface Window {
    BarcodeDetector?: new (options: { formats: string[] }) => BarcodeDetectorLike
  }
}

// A frame every this many milliseconds is plenty for a pass held up to the camera, and spares a phone's battery.
const FRAME_EVERY_MS = 150
// The same pass seen again within this time is the same scan, not a second check-in attempt.
const SAME_SCAN_MS = 4_000

type Reader = (video: HTMLVideoElement) => Promise<string | undefined>

/** A reader of QR codes off video frames: the browser's BarcodeDetector, or jsQR (loaded only when needed). */
async function qrReader(): Promise<Reader> {
  if (window.BarcodeDetector) {
    const detector = new window.BarcodeDetector({ formats: ['qr_code'] })
    return async (video) => (await detector.detect(video))[0]?.rawValue
  }
  const { default: jsQR } = await import('jsqr')
  const canvas = document.createElement('canvas')
  const context = canvas.getContext('2d', { willReadFrequently: true })!
  return async (video) => {
    if (video.videoWidth === 0) return undefined
    canvas.width = video.videoWidth
    canvas.height = video.videoHeight
    context.drawImage(video, 0, 0)
    const frame = context.getImageData(0, 0, canvas.width, canvas.height)
    return jsQR(frame.data, frame.width, frame.height, { inversionAttempts: 'dontInvert' })?.data
  }
}

/** The camera on the check-in desk: shows what it sees and hands each pass code it reads to `onCode`. */
export function CameraScanner({ onCode }: { onCode: (code: string) => void }) {
  const [on, setOn] = useState(false)
  const [problem, setProblem] = useState<string>()
  const video = useRef<HTMLVideoElement>(null)
  const onCodeRef = useRef(onCode)
  onCodeRef.current = onCode

  useEffect(() => {
    if (!on) return
    let stopped = false
    let stream: MediaStream | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    let last = { code: '', at: 0 }
    void (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false })
        if (stopped) return
        video.current!.srcObject = stream
        await video.current!.play()
        const read = await qrReader()
        const look = async () => {
          if (stopped) return
          const code = await read(video.current!).catch(() => undefined)
          if (code && (code !== last.code || Date.now() - last.at > SAME_SCAN_MS)) {
            last = { code, at: Date.now() }
            onCodeRef.current(code)
          }
          timer = setTimeout(() => void look(), FRAME_EVERY_MS)
        }
        await look()
      } catch (error) {
        setProblem(`The camera could not be opened (${error instanceof Error ? error.message : String(error)}). Type the pass code or search by name instead.`)
        setOn(false)
      }
    })()
    return () => {
      stopped = true
      clearTimeout(timer)
      for (const track of stream?.getTracks() ?? []) track.stop()
    }
  }, [on])

  if (!navigator.mediaDevices?.getUserMedia) return null
  return (
    <div className="check-in-camera">
      <button
        type="button"
        className="button button--secondary"
        aria-pressed={on}
        onClick={() => {
          setProblem(undefined)
          setOn(!on)
        }}
      >
        {on ? 'Stop the camera' : 'Scan with the camera'}
      </button>
      {problem && (
        <p className="admin-error" role="alert">
          {problem}
        </p>
      )}
      {on && <video ref={video} className="check-in-camera__view" muted playsInline aria-label="What the camera sees" />}
    </div>
  )
}
