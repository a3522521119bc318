import { useEffect, useState, useSyncExternalStore, type ComponentType } from 'react'
import type { Toaster as ToasterComponent } from 'react-hot-toast'

type ToastModule = typeof import('react-hot-toast')

// react-hot-toast loads on the first toast: pages are read far more often than forms are sent,
// so it stays out of every page's initial JavaScript.
let toastModule: Promise<ToastModule> | undefined
const listeners = new Set<(module: ToastModule) => void>()

/** The toast library, loaded once on first use. */
function loadToast(): Promise<ToastModule> {
  if (!toastModule) {
    toastModule = import('react-hot-toast')
    void toastModule.then((module) => listeners.forEach((listener) => listener(module)))
  }
  return toastModule
}

// The specification's toast timings, stated rather than left to the library's defaults (which match today);
// react-hot-toast keeps at most 20 toasts, the specification's limit.
const toastDurations = { duration: 4000, success: { duration: 2000 }, error: { duration: 4000 }, loading: { duration: Infinity } }

// Below the sticky header (z-index 50) and clear of it, so toasts never cover the navigation.
const toasterStyle = { top: 'calc(var(--header-height) + 1rem)', zIndex: 40 }

// An open modal <dialog> sits in the browser's top layer, above every z-index of the page: while one is open the
// toasts show in the Toaster it holds, so they are not hidden under its backdrop.
let modalOpen = false
const modalListeners = new Set<() => void>()

/** Tells the toasts whether a modal dialog (holding its own `<LazyToaster inModal />`) is open. */
export function setToastsInModal(open: boolean): void {
  modalOpen = open
  modalListeners.forEach((listener) => listener())
}

function subscribeToModal(onChange: () => void) {
  modalListeners.add(onChange)
  return () => {
    modalListeners.delete(onChange)
  }
}

/**
 * Mounts react-hot-toast's Toaster (top-right) as soon as anything loads the library: the page's, or while a modal
 * dialog is open, the one inside it (`inModal`).
 */
export function LazyToaster({ inModal = false }: { inModal?: boolean }) {
  const [Toaster, setToaster] = useState<ComponentType<Parameters<typeof ToasterComponent>[0]>>()
  const showsInModal = useSyncExternalStore(
    subscribeToModal,
    () => modalOpen,
    () => false,
  )
  useEffect(() => {
    const show = (module: ToastModule) => setToaster(() => module.Toaster)
    listeners.add(show)
    if (toastModule) void toastModule.then(show)
    return () => {
      listeners.delete(show)
    }
  }, [])
  if (!Toaster || showsInModal !== inModal) return null
  return <Toaster position="top-right" toastOptions={toastDurations} containerStyle={toasterStyle} />
}

let lastToastId = 0
const nextToastId = () => `toast-${++lastToastId}`

/**
 * The subset of react-hot-toast's `toast` the forms use, callable before the library has loaded: calls run
 * in order once it has, and every toast gets its id up front so it can be dismissed. An answer given the id of a
 * loading toast takes that toast's place rather than standing beside it.
 */
export const toast = {
  loading(message: string): string {
    const id = nextToastId()
    void loadToast().then((module) => module.default.loading(message, { id }))
    return id
  },
  success(message: string, id = nextToastId()): string {
    void loadToast().then((module) => module.default.success(message, { id }))
    return id
  },
  error(message: string, id = nextToastId()): string {
    void loadToast().then((module) => module.default.error(message, { id }))
    return id
  },
  dismiss(id: string): void {
    void loadToast().then((module) => module.default.dismiss(id))
  },
}
