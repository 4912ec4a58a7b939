import { describeManualMode } from './manualMode'

describeManualMode('false')
