// A video file Chromium plays as its camera (--use-file-for-fake-video-capture): a Y4M stream whose frames show a
// PNG (a pass's QR code from its e-mail) in the middle of a white 640×480 picture. Written here, frame by frame, so the
// tests need no ffmpeg.
import { writeFileSync } from 'node:fs'
import { PNG } from 'pngjs'

const WIDTH = 640
const HEIGHT = 480

/** Writes `frames` frames (at 10 a second) of the PNG on white to `file`, in Y4M with 4:2:0 chroma. */
export function writeY4mOfPng(file: string, png: Buffer, frames = 10): void {
  const image = PNG.sync.read(png)
  // The picture's brightness (BT.601 luma); the colour planes stay grey, which is what a black-and-white code needs.
  const luma = Buffer.alloc(WIDTH * HEIGHT, 235)
  const left = Math.floor((WIDTH - image.width) / 2)
  const top = Math.floor((HEIGHT - image.height) / 2)
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const at = (y * image.width + x) * 4
      const [r, g, b] = [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!]
      luma[(top + y) * WIDTH + left + x] = Math.round(16 + (219 * (0.299 * r + 0.587 * g + 0.114 * b)) / 255)
    }
  }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2), 128)
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma])
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`)
  writeFileSync(file, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]))
}
