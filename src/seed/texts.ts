import type { Locale } from '@/i18n/locales'

/** The demo content's words, one set per locale (Spanish of Spain, European Portuguese, English). */
export type SeedTexts = {
  site: { title: string; description: string }
  categories: { airQuality: string; cityServices: string }
  layers: {
    airQuality: { name: string; description: string; no2Alert: string; pm10Alert: string }
    weather: { name: string; description: string }
    devices: { name: string; description: string; batteryAlert: string }
  }
  home: {
    title: string
    description: string
    kpiNo2: string
    kpiWarmest: string
    kpiSensors: string
    weatherNow: string
    map: string
    alerts: string
    table: string
    intro: string
    openDataHeading: string
    openDataText: string
    ctaText: string
    ctaLink: string
  }
  history: { title: string; description: string; airChart: string; warmestChart: string; howToReadHeading: string; howToReadText: string }
  posts: Record<'sensors' | 'publishing', { title: string; description: string; paragraphs: string[] }>
  nav: { home: string; history: string; news: string; questions: string }
  footer: { feed: string; address: string; copyright: string }
}

export const SEED_TEXTS: Record<Locale, SeedTexts> = {
  es: {
    site: { title: 'Panel de la ciudad', description: 'El tiempo, la calidad del aire y el estado de los sensores de nuestra ciudad, en directo.' },
    categories: { airQuality: 'Calidad del aire', cityServices: 'Servicios municipales' },
    layers: {
      airQuality: {
        name: 'Calidad del aire',
        description: 'Dióxido de nitrógeno y partículas en suspensión en las estaciones de calidad del aire de la ciudad.',
        no2Alert: 'NO₂ en {value}, por encima del límite horario de 200 µg/m³',
        pm10Alert: 'PM10 en {value}, por encima del límite diario de 50 µg/m³',
      },
      weather: { name: 'Tiempo', description: 'Temperatura, humedad y viento en las estaciones meteorológicas.' },
      devices: { name: 'Sensores', description: 'Los dispositivos que toman las medidas y el estado de sus baterías.', batteryAlert: 'Batería al {value}: hay que cambiarla pronto' },
    },
    home: {
      title: 'Tu ciudad, en directo',
      description: 'El tiempo, la calidad del aire y el estado de los sensores de nuestra ciudad, en directo.',
      kpiNo2: 'NO₂ medio ahora',
      kpiWarmest: 'Estación más cálida',
      kpiSensors: 'Sensores que informan',
      weatherNow: 'El tiempo ahora',
      map: 'Calidad del aire y tiempo',
      alerts: 'Alertas activas',
      table: 'Estaciones de calidad del aire',
      intro: 'El tiempo, la calidad del aire y el estado de los dispositivos municipales, directamente de los sensores que los miden.',
      openDataHeading: 'Datos abiertos, explicados',
      openDataText:
        'Todas las cifras de esta web proceden del context broker NGSI-LD del ayuntamiento. Los valores se actualizan cada pocos minutos y cada uno indica cuándo se midió.',
      ctaText: 'Lee las últimas noticias sobre los sensores y los servicios de la ciudad.',
      ctaLink: 'Leer las noticias',
    },
    history: {
      title: 'La semana en cifras',
      description: 'La calidad del aire y la temperatura de los últimos días, según los sensores de la ciudad.',
      airChart: 'La calidad del aire esta semana',
      warmestChart: 'La lectura más cálida de cada hora, hoy',
      howToReadHeading: 'Cómo leer estos gráficos',
      howToReadText: 'Medias de todos los sensores de la capa por periodo, a partir del histórico del broker. Cada gráfico tiene una tabla y una descarga en CSV.',
    },
    posts: {
      sensors: {
        title: 'Nuevos sensores de calidad del aire en el paseo marítimo',
        description: 'Doce nuevos sensores miden NO₂, PM10, PM2,5 y ozono.',
        paragraphs: [
          'Doce nuevos sensores miden ya el dióxido de nitrógeno, las partículas en suspensión y el ozono a lo largo del paseo marítimo.',
          'Sus lecturas aparecen en el panel en pocos minutos, con la hora en que se midió cada valor.',
        ],
      },
      publishing: {
        title: 'Cómo publicamos los datos de la ciudad',
        description: 'Los estándares del panel: NGSI-LD y Smart Data Models.',
        paragraphs: [
          'El panel lee un context broker NGSI-LD estándar, la misma interfaz que usan muchas ciudades europeas.',
          'Los modelos de datos siguen la iniciativa Smart Data Models, así que las herramientas de otras ciudades también pueden leer los nuestros.',
        ],
      },
    },
    nav: { home: 'Inicio', history: 'Histórico', news: 'Noticias', questions: 'Preguntas' },
    footer: { feed: 'Noticias (Atom)', address: 'Ayuntamiento, Plaza Mayor 1', copyright: 'Contenidos CC-BY-4.0 salvo que se indique lo contrario.' },
  },
  pt: {
    site: { title: 'Painel da cidade', description: 'O estado do tempo, a qualidade do ar e os sensores da nossa cidade, em direto.' },
    categories: { airQuality: 'Qualidade do ar', cityServices: 'Serviços municipais' },
    layers: {
      airQuality: {
        name: 'Qualidade do ar',
        description: 'Dióxido de azoto e partículas em suspensão nas estações de qualidade do ar da cidade.',
        no2Alert: 'NO₂ a {value}, acima do limite horário de 200 µg/m³',
        pm10Alert: 'PM10 a {value}, acima do limite diário de 50 µg/m³',
      },
      weather: { name: 'Estado do tempo', description: 'Temperatura, humidade e vento nas estações meteorológicas.' },
      devices: { name: 'Sensores', description: 'Os dispositivos que fazem as medições e o estado das suas baterias.', batteryAlert: 'Bateria a {value}: substituir em breve' },
    },
    home: {
      title: 'A sua cidade, em direto',
      description: 'O estado do tempo, a qualidade do ar e os sensores da nossa cidade, em direto.',
      kpiNo2: 'NO₂ médio agora',
      kpiWarmest: 'Estação mais quente',
      kpiSensors: 'Sensores em funcionamento',
      weatherNow: 'O tempo agora',
      map: 'Qualidade do ar e estado do tempo',
      alerts: 'Alertas ativos',
      table: 'Estações de qualidade do ar',
      intro: 'O estado do tempo, a qualidade do ar e o estado dos equipamentos municipais, diretamente dos sensores que os medem.',
      openDataHeading: 'Dados abertos, explicados',
      openDataText:
        'Todos os números deste sítio vêm do context broker NGSI-LD da câmara municipal. Os valores são atualizados de poucos em poucos minutos e cada um indica quando foi medido.',
      ctaText: 'Leia as últimas notícias sobre os sensores e os serviços da cidade.',
      ctaLink: 'Ler as notícias',
    },
    history: {
      title: 'A semana em números',
      description: 'A qualidade do ar e a temperatura dos últimos dias, segundo os sensores da cidade.',
      airChart: 'A qualidade do ar esta semana',
      warmestChart: 'A leitura mais quente de cada hora, hoje',
      howToReadHeading: 'Como ler estes gráficos',
      howToReadText: 'Médias de todos os sensores da camada, por período, a partir do histórico do broker. Cada gráfico tem uma tabela e uma transferência em CSV.',
    },
    posts: {
      sensors: {
        title: 'Novos sensores de qualidade do ar na marginal',
        description: 'Doze novos sensores medem NO₂, PM10, PM2,5 e ozono.',
        paragraphs: [
          'Doze novos sensores já medem o dióxido de azoto, as partículas em suspensão e o ozono ao longo da marginal.',
          'As suas leituras aparecem no painel em poucos minutos, com a hora a que cada valor foi medido.',
        ],
      },
      publishing: {
        title: 'Como publicamos os dados da cidade',
        description: 'As normas por detrás do painel: NGSI-LD e Smart Data Models.',
        paragraphs: [
          'O painel lê um context broker NGSI-LD normalizado, a mesma interface que muitas cidades europeias utilizam.',
          'Os modelos de dados seguem a iniciativa Smart Data Models, pelo que as ferramentas de outras cidades também conseguem ler os nossos.',
        ],
      },
    },
    nav: { home: 'Início', history: 'Histórico', news: 'Notícias', questions: 'Perguntas' },
    footer: { feed: 'Notícias (Atom)', address: 'Câmara Municipal, Praça Principal 1', copyright: 'Conteúdos CC-BY-4.0, salvo indicação em contrário.' },
  },
  en: {
    site: { title: 'City Dashboard', description: 'Live weather, air quality and device data for our city.' },
    categories: { airQuality: 'Air quality', cityServices: 'City services' },
    layers: {
      airQuality: {
        name: 'Air quality',
        description: 'Nitrogen dioxide and particulate matter at the city’s air-quality stations.',
        no2Alert: 'NO₂ at {value}, above the 1-hour limit of 200 µg/m³',
        pm10Alert: 'PM10 at {value}, above the daily limit of 50 µg/m³',
      },
      weather: { name: 'Weather', description: 'Temperature, humidity and wind at the weather stations.' },
      devices: { name: 'Sensors', description: 'The devices behind the measurements and their batteries.', batteryAlert: 'Battery at {value}: replace soon' },
    },
    home: {
      title: 'Your city, live',
      description: 'Live weather, air quality and device data for our city.',
      kpiNo2: 'Average NO₂ now',
      kpiWarmest: 'Warmest station',
      kpiSensors: 'Sensors reporting',
      weatherNow: 'Weather now',
      map: 'Air quality and weather',
      alerts: 'Alerts now',
      table: 'Air-quality stations',
      intro: 'Weather, air quality and the state of city devices, straight from the sensors that measure them.',
      openDataHeading: 'Open data, explained',
      openDataText: 'Every figure on this site comes from the city’s NGSI-LD context broker. Values refresh every few minutes; each one says when it was observed.',
      ctaText: 'Read the latest news about the city’s sensors and services.',
      ctaLink: 'Read the news',
    },
    history: {
      title: 'The week in numbers',
      description: 'Air quality and temperature over the last days, from the city’s sensors.',
      airChart: 'Air quality this week',
      warmestChart: 'Warmest reading per hour today',
      howToReadHeading: 'How to read these charts',
      howToReadText: 'Averages over every sensor of the layer, per period, from the broker’s history. Each chart has a table and a CSV download.',
    },
    posts: {
      sensors: {
        title: 'New air-quality sensors along the seafront',
        description: 'Twelve new sensors measure NO₂, PM10, PM2.5 and ozone.',
        paragraphs: [
          'Twelve new sensors now measure nitrogen dioxide, particulate matter and ozone along the seafront.',
          'Their readings appear on the dashboard within minutes, with the time each value was observed.',
        ],
      },
      publishing: {
        title: 'How we publish city data',
        description: 'Standards behind the dashboard: NGSI-LD and Smart Data Models.',
        paragraphs: [
          'The dashboard reads a standard NGSI-LD context broker, the same interface many European cities use.',
          'Data models follow the Smart Data Models initiative, so other cities’ tools can read ours too.',
        ],
      },
    },
    nav: { home: 'Home', history: 'History', news: 'News', questions: 'Questions' },
    footer: { feed: 'News feed (Atom)', address: 'City Hall, Main Square 1', copyright: 'Content CC-BY-4.0 unless stated otherwise.' },
  },
}
