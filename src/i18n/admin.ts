import { en } from '@payloadcms/translations/languages/en'
import { es } from '@payloadcms/translations/languages/es'
import { pt } from '@payloadcms/translations/languages/pt'
import type { PayloadRequest } from 'payload'

// The admin's own messages (the checks on a page's data blocks, the first-account note), in every language the admin
// offers. Payload picks the editor's language (their choice, else the browser's) and translates
// its own words around these: "Layout > Block 2 (KPI card) > Attribute".

const english = {
  unknownCity: 'Unknown city "{{city}}": add it under Site settings → Cities first (known: {{known}})',
  layerCityUnknown: 'The layer "{{layer}}" is fixed to the city "{{city}}", which is not under Site settings → Cities',
  unknownAttributes: 'Not an attribute of the layer "{{layer}}": {{names}}. Its attributes: {{known}}',
  textAttributes: 'These attributes of "{{layer}}" hold text, not numbers: {{names}}. {{what}} needs a numeric attribute ({{numeric}})',
  statisticNeedsNumbers: 'The {{statistic}}',
  chartNeedsNumbers: 'A chart',
  attributeToAggregate: 'Which attribute to aggregate?',
  attributesToChart: 'Which attributes to chart?',
  noAlertRules: 'The layer "{{layer}}" has no alert rules: the panel would always be empty (add rules to the layer first)',
  none: 'none',
  navigationFull: 'The header navigation is full ({{max}} links): remove one under Header → Nav items first',
  firstAccountIsAdmin: 'This first account becomes the site’s administrator: it manages everything, including the other accounts and their roles.',
}

export type AdminMessage = keyof typeof english

const spanish: Record<AdminMessage, string> = {
  unknownCity: 'Ciudad desconocida «{{city}}»: añádala antes en Ajustes del sitio → Ciudades (conocidas: {{known}})',
  layerCityUnknown: 'La capa «{{layer}}» está fijada a la ciudad «{{city}}», que no está en Ajustes del sitio → Ciudades',
  unknownAttributes: 'No es un atributo de la capa «{{layer}}»: {{names}}. Sus atributos: {{known}}',
  textAttributes: 'Estos atributos de «{{layer}}» contienen texto, no números: {{names}}. {{what}} necesita un atributo numérico ({{numeric}})',
  statisticNeedsNumbers: 'La estadística {{statistic}}',
  chartNeedsNumbers: 'Un gráfico',
  attributeToAggregate: '¿Qué atributo se agrega?',
  attributesToChart: '¿Qué atributos se representan?',
  noAlertRules: 'La capa «{{layer}}» no tiene reglas de alerta: el panel estaría siempre vacío (añada reglas a la capa antes)',
  none: 'ninguno',
  navigationFull: 'La navegación de la cabecera está llena ({{max}} enlaces): quite uno antes en Cabecera → Nav items',
  firstAccountIsAdmin: 'Esta primera cuenta será la administradora del sitio: lo gestiona todo, también las demás cuentas y sus roles.',
}

const portuguese: Record<AdminMessage, string> = {
  unknownCity: 'Cidade desconhecida «{{city}}»: adicione-a antes em Definições do site → Cidades (conhecidas: {{known}})',
  layerCityUnknown: 'A camada «{{layer}}» está fixada à cidade «{{city}}», que não está em Definições do site → Cidades',
  unknownAttributes: 'Não é um atributo da camada «{{layer}}»: {{names}}. Os seus atributos: {{known}}',
  textAttributes: 'Estes atributos de «{{layer}}» contêm texto, não números: {{names}}. {{what}} precisa de um atributo numérico ({{numeric}})',
  statisticNeedsNumbers: 'A estatística {{statistic}}',
  chartNeedsNumbers: 'Um gráfico',
  attributeToAggregate: 'Que atributo agregar?',
  attributesToChart: 'Que atributos representar?',
  noAlertRules: 'A camada «{{layer}}» não tem regras de alerta: o painel estaria sempre vazio (adicione regras à camada antes)',
  none: 'nenhum',
  navigationFull: 'A navegação do cabeçalho está cheia ({{max}} ligações): retire uma antes em Cabeçalho → Nav items',
  firstAccountIsAdmin: 'Esta primeira conta será a administradora do site: gere tudo, incluindo as outras contas e os seus papéis.',
}

/** Payload's i18n settings: the languages the admin offers, with this project's messages under `custom:`. */
export const adminI18n = {
  fallbackLanguage: 'en' as const,
  supportedLanguages: { en, es, pt },
  translations: { en: { custom: english }, es: { custom: spanish }, pt: { custom: portuguese } },
}

/** One of the messages above in the language of the request (the editor's). */
export const adminMessage = (req: Pick<PayloadRequest, 't'>, key: AdminMessage, values: Record<string, string> = {}): string =>
  (req.t as (key: string, values?: Record<string, string>) => string)(`custom:${key}`, values)
