import { useEffect, useState, type ComponentType } from 'react'
import type { Toaster as ToasterComponent } from 'react-hot-toast'

type ToastModule = typeof import('react-hot-toast')

// react-hot-toast loads on the first toast: pages are read far more often than forms are sent,
// so it stays out of every page's initial JavaScript.
let toastModule: Promise<ToastModule> | undefined
const listeners = new Set<(module: ToastModule) => void>()

/** The toast library, loaded once on first use. */
export function loadToast(): Promise<ToastModule> {
  if (!toastModule) {
    toastModule = import('react-hot-toast')
    void toastModule.then((module) => listeners.forEach((listener) => listener(module)))
  }
  return toastModule
}

// The specification's toast timings, stated rather than left to the library's defaults (which match today);
// react-hot-toast keeps at most 20 toasts, the specification's limit.
const toastDurations = { duration: 4000, success: { duration: 2000 }, error: { duration: 4000 }, loading: { duration: Infinity } }

/** Mounts react-hot-toast's Toaster (top-right) as soon as anything loads the library. */
export function LazyToaster() {
  const [Toaster, setToaster] = useState<ComponentType<Parameters<typeof ToasterComponent>[0]>>()
  useEffect(() => {
    const show = (module: ToastModule) => setToaster(() => module.Toaster)
    listeners.add(show)
    if (toastModule) void toastModule.then(show)
    return () => {
      listeners.delete(show)
    }
  }, [])
  return Toaster ? <Toaster position="top-right" toastOptions={toastDurations} /> : null
}

let lastToastId = 0

/**
 * The subset of react-hot-toast's `toast` the forms use, callable before the library has loaded: calls run
 * in order once it has, and loading toasts get their id up front so they can be dismissed.
 */
export const toast = {
  loading(message: string): string {
    const id = `toast-${++lastToastId}`
    void loadToast().then((module) => module.default.loading(message, { id }))
    return id
  },
  success(message: string): void {
    void loadToast().then((module) => module.default.success(message))
  },
  error(message: string): void {
    void loadToast().then((module) => module.default.error(message))
  },
  dismiss(id: string): void {
    void loadToast().then((module) => module.default.dismiss(id))
  },
}
