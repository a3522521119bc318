import { request } from 'node:https'
import { describe, expect, it } from 'vitest'
import { startContentLake } from './contentLake.ts'

describe('the stand-in of Sanity’s API', () => {
  it('keeps a quiet listener stream talking, so the studio does not drop and reopen it in the middle of a Publish', async () => {
    const lake = await startContentLake({ documents: [], keepAliveMs: 50 })
    try {
      const received = await new Promise<string>((resolve, reject) => {
        const listen = request(
          {
            host: '127.0.0.1',
            servername: 'local.localhost',
            port: new URL(lake.apiHost).port,
            path: '/v2025-02-19/data/listen/production?query=*',
            ca: lake.certificate,
          },
          (response) => {
            let text = ''
            response.setEncoding('utf8')
            response.on('data', (chunk: string) => {
              text += chunk
              if (text.includes(': keep-alive')) {
                listen.destroy()
                resolve(text)
              }
            })
          },
        )
        listen.on('error', reject)
        listen.end()
      })
      expect(received).toMatch(/^event: welcome\n[^]*\n\n: keep-alive\n\n/)
    } finally {
      await lake.stop()
    }
  })
})
