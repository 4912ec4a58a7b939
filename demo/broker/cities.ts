// The two demo cities (one NGSI-LD tenant each). Outlines roughly follow the land area of
// each municipality so generated sensors do not end up in the sea or the river; street
// anchors are real streets at approximate positions, used to name the nearest address.

export type LonLat = readonly [number, number]

export interface StreetAnchor {
  street: string
  district: string
  position: LonLat
}

export interface City {
  tenant: string
  locality: string
  region: string
  country: string
  /** Mobile country / network code for Device.mcc and Device.mnc. */
  mobileCountryCode: string
  dataProvider: string
  source: string
  center: LonLat
  outline: readonly LonLat[]
  streets: readonly StreetAnchor[]
  /** The street where the always-polluted station sits, so threshold alerts can fire. */
  pollutedStreet: string
  climate: { meanTemperature: number; annualSwing: number; dailySwing: number; windiness: number }
  labels: { weather: string; airQuality: string; device: string }
}

export const cities: readonly City[] = [
  {
    tenant: 'santander',
    locality: 'Santander',
    region: 'Cantabria',
    country: 'ES',
    mobileCountryCode: '214',
    dataProvider: 'Ayuntamiento de Santander (demo)',
    source: 'https://datos.santander.es',
    center: [-3.81, 43.462],
    outline: [
      [-3.86, 43.443],
      [-3.83, 43.445],
      [-3.812, 43.459],
      [-3.795, 43.46],
      [-3.776, 43.464],
      [-3.77, 43.47],
      [-3.78, 43.476],
      [-3.784, 43.488],
      [-3.795, 43.492],
      [-3.82, 43.488],
      [-3.85, 43.477],
      [-3.875, 43.465],
      [-3.88, 43.45],
    ],
    streets: [
      { street: 'Paseo de Pereda', district: 'Centro', position: [-3.804, 43.461] },
      { street: 'Calle Castelar', district: 'Puerto Chico', position: [-3.796, 43.463] },
      { street: 'Avenida de Reina Victoria', district: 'Sardinero', position: [-3.785, 43.47] },
      { street: 'Calle Burgos', district: 'Centro', position: [-3.81, 43.46] },
      { street: 'Calle San Fernando', district: 'Centro', position: [-3.817, 43.463] },
      { street: 'Calle Vargas', district: 'Centro', position: [-3.815, 43.466] },
      { street: 'Calle Jesús de Monasterio', district: 'Centro', position: [-3.81, 43.462] },
      { street: 'Calle Hernán Cortés', district: 'Centro', position: [-3.805, 43.463] },
      { street: 'Calle Isabel II', district: 'Centro', position: [-3.807, 43.464] },
      { street: 'Calle Cisneros', district: 'Centro', position: [-3.817, 43.466] },
      { street: 'Calle Tetuán', district: 'Puerto Chico', position: [-3.795, 43.4655] },
      { street: 'Calle Juan de la Cosa', district: 'Puerto Chico', position: [-3.79, 43.465] },
      { street: 'Calle Marqués de la Hermida', district: 'Castilla-Hermida', position: [-3.825, 43.455] },
      { street: 'Calle Castilla', district: 'Castilla-Hermida', position: [-3.822, 43.458] },
      { street: 'Avenida de los Castros', district: 'Sardinero', position: [-3.793, 43.473] },
      { street: 'Avenida de Castañeda', district: 'Sardinero', position: [-3.788, 43.476] },
      { street: 'Calle General Dávila', district: 'General Dávila', position: [-3.813, 43.468] },
      { street: 'Avenida de Valdecilla', district: 'Valdecilla', position: [-3.83, 43.458] },
      { street: 'Calle Alta', district: 'Centro', position: [-3.82, 43.465] },
      { street: 'Calle Camilo Alonso Vega', district: 'Cazoña', position: [-3.83, 43.465] },
      { street: 'Avenida de la Albericia', district: 'La Albericia', position: [-3.845, 43.469] },
      { street: 'Avenida del Faro', district: 'Cueto', position: [-3.795, 43.486] },
      { street: 'Calle Primero de Mayo', district: 'Peñacastillo', position: [-3.858, 43.45] },
    ],
    pollutedStreet: 'Calle Marqués de la Hermida',
    climate: { meanTemperature: 14.5, annualSwing: 5.5, dailySwing: 3.5, windiness: 1.2 },
    labels: { weather: 'Estación meteorológica', airQuality: 'Calidad del aire', device: 'Sensor ambiental' },
  },
  {
    tenant: 'porto',
    locality: 'Porto',
    region: 'Porto',
    country: 'PT',
    mobileCountryCode: '268',
    dataProvider: 'Câmara Municipal do Porto (demo)',
    source: 'https://opendata.porto.digital',
    center: [-8.61, 41.15],
    outline: [
      [-8.691, 41.16],
      [-8.688, 41.173],
      [-8.66, 41.175],
      [-8.64, 41.18],
      [-8.61, 41.185],
      [-8.58, 41.183],
      [-8.556, 41.172],
      [-8.553, 41.152],
      [-8.57, 41.141],
      [-8.595, 41.139],
      [-8.615, 41.14],
      [-8.64, 41.144],
      [-8.67, 41.147],
      [-8.678, 41.15],
    ],
    streets: [
      { street: 'Avenida dos Aliados', district: 'Santo Ildefonso', position: [-8.611, 41.1485] },
      { street: 'Rua de Santa Catarina', district: 'Santo Ildefonso', position: [-8.606, 41.148] },
      { street: 'Rua de Sá da Bandeira', district: 'Santo Ildefonso', position: [-8.608, 41.15] },
      { street: 'Rua das Flores', district: 'Vitória', position: [-8.613, 41.143] },
      { street: 'Rua de Cedofeita', district: 'Cedofeita', position: [-8.618, 41.154] },
      { street: 'Rua de Miguel Bombarda', district: 'Cedofeita', position: [-8.622, 41.15] },
      { street: 'Avenida da Boavista', district: 'Massarelos', position: [-8.64, 41.159] },
      { street: 'Rua do Campo Alegre', district: 'Massarelos', position: [-8.635, 41.152] },
      { street: 'Rua de Costa Cabral', district: 'Paranhos', position: [-8.599, 41.165] },
      { street: 'Rua de Antero de Quental', district: 'Paranhos', position: [-8.605, 41.16] },
      { street: 'Rua da Constituição', district: 'Paranhos', position: [-8.608, 41.16] },
      { street: 'Rua Dr. Roberto Frias', district: 'Paranhos', position: [-8.595, 41.178] },
      { street: 'Estrada da Circunvalação', district: 'Paranhos', position: [-8.62, 41.183] },
      { street: 'Rua de Pedro Hispano', district: 'Ramalde', position: [-8.627, 41.166] },
      { street: 'Avenida de Fernão de Magalhães', district: 'Bonfim', position: [-8.594, 41.156] },
      { street: 'Rua do Heroísmo', district: 'Bonfim', position: [-8.592, 41.147] },
      { street: 'Rua de Pinto Bessa', district: 'Campanhã', position: [-8.585, 41.149] },
      { street: 'Rua do Freixo', district: 'Campanhã', position: [-8.57, 41.143] },
      { street: 'Rua Dom João de Castro', district: 'Lordelo do Ouro', position: [-8.66, 41.16] },
      { street: 'Rua de Diogo Botelho', district: 'Lordelo do Ouro', position: [-8.655, 41.154] },
      { street: 'Avenida do Brasil', district: 'Foz do Douro', position: [-8.68, 41.16] },
      { street: 'Avenida de Montevideu', district: 'Nevogilde', position: [-8.681, 41.165] },
    ],
    pollutedStreet: 'Estrada da Circunvalação',
    climate: { meanTemperature: 15.5, annualSwing: 5, dailySwing: 4.5, windiness: 1 },
    labels: { weather: 'Estação meteorológica', airQuality: 'Qualidade do ar', device: 'Sensor ambiental' },
  },
]
