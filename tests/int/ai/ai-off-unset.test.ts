import { describeManualMode } from './manualMode'

describeManualMode(undefined)
