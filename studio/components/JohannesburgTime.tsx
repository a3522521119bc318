import { useEffect } from 'react'
import { definePlugin, useKeyValueStore, type LayoutProps } from 'sanity'
import { TIME_ZONE } from '@events/pricing'

/** The editor's time-zone settings of Sanity's Releases and scheduled publishing, where it keeps them. */
const SCHEDULING_TIME_ZONE_KEYS = ['studio.timezone.content-releases', 'studio.timezone.scheduled-publishing']

/**
 * Sets Johannesburg as the time zone of Releases and scheduled publishing for an editor who has not chosen one, so
 * every time in the studio reads as the events team and the site read it, wherever the editor's computer is set.
 * An editor's own choice, once made, stays.
 */
function JohannesburgUnlessChosen(props: LayoutProps) {
  const settings = useKeyValueStore()
  useEffect(() => {
    const subscriptions = SCHEDULING_TIME_ZONE_KEYS.map((key) => {
      let decided = false
      return settings.getKey(key).subscribe((chosen) => {
        if (decided) return
        decided = true
        if (!chosen) void settings.setKey(key, TIME_ZONE)
      })
    })
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe())
  }, [settings])
  return props.renderDefault(props)
}

/** The studio plugin that makes Johannesburg the time zone of scheduling unless an editor chose another. */
export const johannesburgTime = definePlugin({ name: 'johannesburg-time', studio: { components: { layout: JohannesburgUnlessChosen } } })
