/** Name of the dataset the local endpoint serves unless told otherwise. */
export const LOCAL_DATASET = 'production'

/** URL path the local endpoint is mounted under unless told otherwise. */
export const LOCAL_CONTENT_PREFIX = '/_content'
