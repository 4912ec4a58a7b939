// UN/CEFACT Recommendation 20 unit codes (NGSI-LD `unitCode`) → the symbol a dashboard shows.
// Only codes seen in city data; an unknown code yields no symbol rather than a guess.

const UNIT_SYMBOLS: Record<string, string> = {
  // temperature
  CEL: '°C',
  FAH: '°F',
  KEL: 'K',
  // ratios and concentrations
  P1: '%',
  GQ: 'µg/m³',
  GP: 'mg/m³',
  '59': 'ppm',
  '61': 'ppb',
  // speed, direction, length
  MTS: 'm/s',
  KMH: 'km/h',
  KNT: 'kn',
  DD: '°',
  MMT: 'mm',
  CMT: 'cm',
  MTR: 'm',
  KTM: 'km',
  // pressure
  HPA: 'hPa',
  A97: 'hPa',
  PAL: 'Pa',
  KPA: 'kPa',
  BAR: 'bar',
  MBR: 'mbar',
  // light, energy, power, electricity
  LUX: 'lx',
  WTT: 'W',
  KWT: 'kW',
  WHR: 'Wh',
  KWH: 'kWh',
  D54: 'W/m²',
  VLT: 'V',
  AMP: 'A',
  HTZ: 'Hz',
  '2N': 'dB',
  // volume, flow, mass, time, counts
  LTR: 'l',
  MTQ: 'm³',
  MQH: 'm³/h',
  KGM: 'kg',
  GRM: 'g',
  SEC: 's',
  MIN: 'min',
  HUR: 'h',
  DAY: 'd',
  '5K': '/min',
  H87: 'pcs',
}

/** The display symbol of a UN/CEFACT code, or undefined when it has none we know. */
export function unitSymbol(code: string | undefined): string | undefined {
  return code === undefined ? undefined : UNIT_SYMBOLS[code.trim().toUpperCase()]
}
