import { HONEYPOT_FIELD, type TrainingKind } from '@events/core'
import type { RouterContextProvider } from 'react-router'
import { trainingMessages, type TrainingOutcome, type TrainingValues } from '../components/TrainingRequestForm'
import { countSubmission, handleForm } from './forms.server'
import { servicesContext } from './services.server'

const emptyTraining: TrainingValues = { name: '', email: '', phone: '', organization: '', message: '' }

/** The training request form's action; the kind comes from the route, so a form cannot post one page's request as the other's. */
export function submitTrainingForm(request: Request, context: Readonly<RouterContextProvider>, kind: TrainingKind) {
  return handleForm(request, context, 'training', emptyTraining, async (values, form): Promise<TrainingOutcome> => {
    await countSubmission(context)
    const { core } = context.get(servicesContext)
    await core.enquiries.submitTrainingRequest({ ...values, kind, [HONEYPOT_FIELD]: form.get(HONEYPOT_FIELD) ?? '' })
    return { status: 'success', message: trainingMessages.success }
  })
}
