import type { Payload } from 'payload'

import { LOCALES, type Locale } from '@/i18n/locales'
import type { AccessibilityStatement } from '@/payload-types'

type Reason = NonNullable<AccessibilityStatement['nonAccessibleContent']>[number]['reason']
type Prose = {
  organisation: string
  siteName: string
  exceptions: { title: string; description: string }[]
  feedbackText: string
  enforcement: string
  freeText: string
}

/** The reasons of the exceptions, in the order of `Prose.exceptions`. */
const REASONS: Reason[] = ['non-compliance', 'disproportionate-burden', 'outside-scope']

/** The demo statement's prose in each language of the site. */
const PROSE: Record<Locale, Prose> = {
  es: {
    organisation: 'Ayuntamiento de Santander',
    siteName: 'el panel de datos de la ciudad',
    exceptions: [
      {
        title: 'Contenido visual de los mapas',
        description:
          'Los marcadores y colores del mapa no transmiten su información a personas ciegas (WCAG 1.1.1, 1.4.1). Alternativa: cada mapa va acompañado de una tabla con los mismos datos, que puede leerse con un lector de pantalla.',
      },
      {
        title: 'Mapa base de un tercero',
        description:
          'Las teselas del mapa base proceden de un proveedor externo y sus rótulos son imágenes sin texto alternativo. Sustituirlas por un mapa base propio supondría una carga desproporcionada; los nombres de calles y lugares pueden buscarse con el buscador de direcciones.',
      },
      {
        title: 'Documentos antiguos en PDF',
        description: 'Los documentos de ofimática publicados antes del 23 de septiembre de 2018 no se han hecho accesibles (artículo 1.4 de la Directiva).',
      },
    ],
    feedbackText: 'Respondemos en un plazo de 20 días hábiles. También puede escribir a: Ayuntamiento, Plaza Mayor 1.',
    enforcement:
      'Si no está satisfecho con la respuesta, puede presentar una reclamación ante la Unidad responsable de accesibilidad de su comunidad autónoma, conforme al Real Decreto 1112/2018.',
    freeText: 'Revisamos esta declaración cada año y cada vez que el sitio cambia de forma importante.',
  },
  pt: {
    organisation: 'Câmara Municipal de Santander',
    siteName: 'o painel de dados da cidade',
    exceptions: [
      {
        title: 'Conteúdo visual dos mapas',
        description:
          'Os marcadores e as cores do mapa não transmitem a sua informação a pessoas cegas (WCAG 1.1.1, 1.4.1). Alternativa: cada mapa é acompanhado de uma tabela com os mesmos dados, legível com um leitor de ecrã.',
      },
      {
        title: 'Mapa base de terceiros',
        description:
          'Os mosaicos do mapa base vêm de um fornecedor externo e as suas legendas são imagens sem texto alternativo. Substituí-los por um mapa base próprio seria um encargo desproporcionado; os nomes de ruas e locais podem ser procurados com a pesquisa de endereços.',
      },
      {
        title: 'Documentos PDF antigos',
        description: 'Os documentos de escritório publicados antes de 23 de setembro de 2018 não foram tornados acessíveis (artigo 1.º, n.º 4, da Diretiva).',
      },
    ],
    feedbackText: 'Respondemos no prazo de 20 dias úteis. Também pode escrever para: Câmara Municipal, Praça Maior 1.',
    enforcement:
      'Se não estiver satisfeito com a resposta, pode apresentar uma reclamação junto do organismo nacional de monitorização da acessibilidade do seu país.',
    freeText: 'Revemos esta declaração todos os anos e sempre que o sítio muda de forma significativa.',
  },
  en: {
    organisation: 'Santander City Council',
    siteName: 'the city data dashboard',
    exceptions: [
      {
        title: 'Visual content of the maps',
        description:
          'Map markers and colours do not convey their information to blind users (WCAG 1.1.1, 1.4.1). Alternative: every map comes with a table of the same data, which screen readers can read.',
      },
      {
        title: 'Third-party basemap',
        description:
          'The basemap tiles come from an external provider and their labels are images without a text alternative. Replacing them with a basemap of our own would be a disproportionate burden; street and place names can be found with the address search.',
      },
      {
        title: 'Old PDF documents',
        description: 'Office documents published before 23 September 2018 have not been made accessible (Article 1(4) of the Directive).',
      },
    ],
    feedbackText: 'We answer within 20 working days. You can also write to: City Hall, Main Square 1.',
    enforcement:
      'If you are not satisfied with the answer, you can complain to the national body that monitors web accessibility in your country (in Spain, the accessibility unit of your region, Royal Decree 1112/2018).',
    freeText: 'We review this statement every year and whenever the site changes significantly.',
  },
}

/**
 * A realistic, partially compliant statement. Written once per locale (the array's rows are
 * created by the first write and reused by id, so each language's titles land on the same rows);
 * without Payload localization each write simply overwrites the last, and English stays.
 */
export async function seedAccessibilityStatement(payload: Payload, context: Record<string, unknown>) {
  const today = new Date().toISOString().slice(0, 10)
  let rowIds: (string | null | undefined)[] = []
  for (const locale of LOCALES) {
    const prose = PROSE[locale]
    const doc = (await payload.updateGlobal({
      slug: 'accessibility-statement',
      context,
      // Typed `null` while the config has no localization; the option is ignored then.
      ...({ locale } as object),
      data: {
        organisation: prose.organisation,
        siteName: prose.siteName,
        conformance: 'partially',
        nonAccessibleContent: prose.exceptions.map((exception, index) => ({
          ...(rowIds[index] ? { id: rowIds[index] } : {}),
          ...exception,
          reason: REASONS[index] ?? 'non-compliance',
        })),
        preparedAt: today,
        reviewedAt: today,
        method: 'self-assessment',
        feedback: { email: 'accesibilidad@example.org', phone: '+34 942 000 000', text: prose.feedbackText },
        enforcement: prose.enforcement,
        freeText: prose.freeText,
      },
    })) as AccessibilityStatement
    rowIds = (doc.nonAccessibleContent ?? []).map((row) => row.id)
  }
}
