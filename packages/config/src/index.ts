export { ConfigError, DEFAULT_PAGE_CACHE_CONTROL, EMBEDDED_PREVIEW_DATE, parseSiteDate, readConfig, type Config, type LogLevel } from './config.ts'
