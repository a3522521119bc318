import { mailTopicName } from '../../lib/admin-format'

/** What kind of e-mail a message is, with its subject under it in a quieter type. */
export function MailTopic({ topic, subject }: { topic: string; subject: string }) {
  return (
    <>
      {mailTopicName(topic)}
      <br />
      <span className="admin-quiet">{subject}</span>
    </>
  )
}
