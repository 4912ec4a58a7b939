import { AlertsPanelBlock } from './AlertsPanel/config'
import { CallToActionBlock } from './CallToAction/config'
import { ChartBlock } from './Chart/config'
import { ContentBlock } from './Content/config'
import { EntityTableBlock } from './EntityTable/config'
import { KpiCardBlock } from './KpiCard/config'
import { MapViewBlock } from './MapView/config'
import { MediaBlock } from './MediaBlock/config'
import { WeatherNowBlock } from './WeatherNow/config'

/** The blocks editors can put on a page, in the order the admin offers them. */
export const pageBlocks = [MapViewBlock, KpiCardBlock, ChartBlock, EntityTableBlock, AlertsPanelBlock, WeatherNowBlock, ContentBlock, CallToActionBlock, MediaBlock]
