import { CitySelect as CitySelect_a6b1508014cb017adfd494d0b1223b59 } from '@/fields/CitySelect'
import { LayerAttributeSelect as LayerAttributeSelect_24551ec62d1141f1965eb37826004fb8 } from '@/fields/LayerAttributeSelect'
import { RscEntryLexicalCell as RscEntryLexicalCell_44fe37237e0ebf4470c9990d8cb7b07e } from '@payloadcms/richtext-lexical/rsc'
import { RscEntryLexicalField as RscEntryLexicalField_44fe37237e0ebf4470c9990d8cb7b07e } from '@payloadcms/richtext-lexical/rsc'
import { LexicalDiffComponent as LexicalDiffComponent_44fe37237e0ebf4470c9990d8cb7b07e } from '@payloadcms/richtext-lexical/rsc'
import { InlineToolbarFeatureClient as InlineToolbarFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { HorizontalRuleFeatureClient as HorizontalRuleFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { UploadFeatureClient as UploadFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { BlockquoteFeatureClient as BlockquoteFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { RelationshipFeatureClient as RelationshipFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { LinkFeatureClient as LinkFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { ChecklistFeatureClient as ChecklistFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { OrderedListFeatureClient as OrderedListFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { UnorderedListFeatureClient as UnorderedListFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { IndentFeatureClient as IndentFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { AlignFeatureClient as AlignFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { HeadingFeatureClient as HeadingFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { ParagraphFeatureClient as ParagraphFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { InlineCodeFeatureClient as InlineCodeFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { SuperscriptFeatureClient as SuperscriptFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { SubscriptFeatureClient as SubscriptFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { StrikethroughFeatureClient as StrikethroughFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { UnderlineFeatureClient as UnderlineFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { BoldFeatureClient as BoldFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { ItalicFeatureClient as ItalicFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { OverviewComponent as OverviewComponent_a8a977ebc872c5d5ea7ee689724c0860 } from '@payloadcms/plugin-seo/client'
import { MetaTitleComponent as MetaTitleComponent_a8a977ebc872c5d5ea7ee689724c0860 } from '@payloadcms/plugin-seo/client'
import { MetaImageComponent as MetaImageComponent_a8a977ebc872c5d5ea7ee689724c0860 } from '@payloadcms/plugin-seo/client'
import { MetaDescriptionComponent as MetaDescriptionComponent_a8a977ebc872c5d5ea7ee689724c0860 } from '@payloadcms/plugin-seo/client'
import { PreviewComponent as PreviewComponent_a8a977ebc872c5d5ea7ee689724c0860 } from '@payloadcms/plugin-seo/client'
import { TranslateWithAi as TranslateWithAi_9542d506236e2ef9c98f1790e7524750 } from '@/collections/AiDrafts/components/TranslateWithAi'
import { DraftWithAi as DraftWithAi_46508ede8290875e3583d307dff8f818 } from '@/collections/AiDrafts/components/DraftWithAi'
import { EntityTypeField as EntityTypeField_3d1e8c315c84429efc4a0dc5db0662f8 } from '@/collections/MapLayers/components/EntityTypeField'
import { BrokerAttributesField as BrokerAttributesField_928adf80569d6a3bca51d3ba99ca6c29 } from '@/collections/MapLayers/components/AttributeFields'
import { LayerAttributesField as LayerAttributesField_928adf80569d6a3bca51d3ba99ca6c29 } from '@/collections/MapLayers/components/AttributeFields'
import { AttributeDisplayRowLabel as AttributeDisplayRowLabel_c5f464e8b72b229d6c88951cfd9a3686 } from '@/collections/MapLayers/components/AttributeDisplayRowLabel'
import { BrokerPreview as BrokerPreview_99bae9e414aa3536d347487961cf55ec } from '@/collections/MapLayers/components/BrokerPreview'
import { LiveStatus as LiveStatus_f3ab538e48131b5082730a6e5b75e259 } from '@/collections/MapLayers/components/LiveStatus'
import { CurrentPasswordField as CurrentPasswordField_251be029e805c6a9ca42e5770036ec46 } from '@/collections/Users/components/CurrentPasswordField'
import { FirstAccountNote as FirstAccountNote_39f21831ae48bd783a87599066177acb } from '@/collections/Users/components/FirstAccountNote'
import { ReviewActions as ReviewActions_86e1f095f872ab14d8a1b824821f3569 } from '@/collections/AiDrafts/components/ReviewActions'
import { TargetCell as TargetCell_598a25e89830baa421223e0e28312779 } from '@/collections/AiDrafts/components/TargetCell'
import { LinkToDoc as LinkToDoc_aead06e4cbf6b2620c5c51c9ab283634 } from '@payloadcms/plugin-search/client'
import { ReindexButton as ReindexButton_aead06e4cbf6b2620c5c51c9ab283634 } from '@payloadcms/plugin-search/client'
import { GatewayStatus as GatewayStatus_89833699b0cf2b10ead7cd8f3798fab5 } from '@/globals/SiteSettings/components/GatewayStatus'
import { AdminIcon as AdminIcon_986bb8e897925e85b744f80d8123e951 } from '@/globals/SiteSettings/components/AdminBrand'
import { AdminLogo as AdminLogo_986bb8e897925e85b744f80d8123e951 } from '@/globals/SiteSettings/components/AdminBrand'
import { LoginEmailOffNote as LoginEmailOffNote_268dedcbf4d37be7907c423e98601bab } from '@/email/admin/EmailOff'
import { EmailOffNavNote as EmailOffNavNote_268dedcbf4d37be7907c423e98601bab } from '@/email/admin/EmailOff'
import { EmailOffNotice as EmailOffNotice_268dedcbf4d37be7907c423e98601bab } from '@/email/admin/EmailOff'
import { ForgotPasswordEmailOffView as ForgotPasswordEmailOffView_268dedcbf4d37be7907c423e98601bab } from '@/email/admin/EmailOff'
import { CollectionCards as CollectionCards_f9c02e79a4aed9a3924487c0cd4cafb1 } from '@payloadcms/next/rsc'

/** @type import('payload').ImportMap */
export const importMap = {
  "@/fields/CitySelect#CitySelect": CitySelect_a6b1508014cb017adfd494d0b1223b59,
  "@/fields/LayerAttributeSelect#LayerAttributeSelect": LayerAttributeSelect_24551ec62d1141f1965eb37826004fb8,
  "@payloadcms/richtext-lexical/rsc#RscEntryLexicalCell": RscEntryLexicalCell_44fe37237e0ebf4470c9990d8cb7b07e,
  "@payloadcms/richtext-lexical/rsc#RscEntryLexicalField": RscEntryLexicalField_44fe37237e0ebf4470c9990d8cb7b07e,
  "@payloadcms/richtext-lexical/rsc#LexicalDiffComponent": LexicalDiffComponent_44fe37237e0ebf4470c9990d8cb7b07e,
  "@payloadcms/richtext-lexical/client#InlineToolbarFeatureClient": InlineToolbarFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#HorizontalRuleFeatureClient": HorizontalRuleFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#UploadFeatureClient": UploadFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#BlockquoteFeatureClient": BlockquoteFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#RelationshipFeatureClient": RelationshipFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#LinkFeatureClient": LinkFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#ChecklistFeatureClient": ChecklistFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#OrderedListFeatureClient": OrderedListFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#UnorderedListFeatureClient": UnorderedListFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#IndentFeatureClient": IndentFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#AlignFeatureClient": AlignFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#HeadingFeatureClient": HeadingFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#ParagraphFeatureClient": ParagraphFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#InlineCodeFeatureClient": InlineCodeFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#SuperscriptFeatureClient": SuperscriptFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#SubscriptFeatureClient": SubscriptFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#StrikethroughFeatureClient": StrikethroughFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#UnderlineFeatureClient": UnderlineFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#BoldFeatureClient": BoldFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#ItalicFeatureClient": ItalicFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/plugin-seo/client#OverviewComponent": OverviewComponent_a8a977ebc872c5d5ea7ee689724c0860,
  "@payloadcms/plugin-seo/client#MetaTitleComponent": MetaTitleComponent_a8a977ebc872c5d5ea7ee689724c0860,
  "@payloadcms/plugin-seo/client#MetaImageComponent": MetaImageComponent_a8a977ebc872c5d5ea7ee689724c0860,
  "@payloadcms/plugin-seo/client#MetaDescriptionComponent": MetaDescriptionComponent_a8a977ebc872c5d5ea7ee689724c0860,
  "@payloadcms/plugin-seo/client#PreviewComponent": PreviewComponent_a8a977ebc872c5d5ea7ee689724c0860,
  "@/collections/AiDrafts/components/TranslateWithAi#TranslateWithAi": TranslateWithAi_9542d506236e2ef9c98f1790e7524750,
  "@/collections/AiDrafts/components/DraftWithAi#DraftWithAi": DraftWithAi_46508ede8290875e3583d307dff8f818,
  "@/collections/MapLayers/components/EntityTypeField#EntityTypeField": EntityTypeField_3d1e8c315c84429efc4a0dc5db0662f8,
  "@/collections/MapLayers/components/AttributeFields#BrokerAttributesField": BrokerAttributesField_928adf80569d6a3bca51d3ba99ca6c29,
  "@/collections/MapLayers/components/AttributeFields#LayerAttributesField": LayerAttributesField_928adf80569d6a3bca51d3ba99ca6c29,
  "@/collections/MapLayers/components/AttributeDisplayRowLabel#AttributeDisplayRowLabel": AttributeDisplayRowLabel_c5f464e8b72b229d6c88951cfd9a3686,
  "@/collections/MapLayers/components/BrokerPreview#BrokerPreview": BrokerPreview_99bae9e414aa3536d347487961cf55ec,
  "@/collections/MapLayers/components/LiveStatus#LiveStatus": LiveStatus_f3ab538e48131b5082730a6e5b75e259,
  "@/collections/Users/components/CurrentPasswordField#CurrentPasswordField": CurrentPasswordField_251be029e805c6a9ca42e5770036ec46,
  "@/collections/Users/components/FirstAccountNote#FirstAccountNote": FirstAccountNote_39f21831ae48bd783a87599066177acb,
  "@/collections/AiDrafts/components/ReviewActions#ReviewActions": ReviewActions_86e1f095f872ab14d8a1b824821f3569,
  "@/collections/AiDrafts/components/TargetCell#TargetCell": TargetCell_598a25e89830baa421223e0e28312779,
  "@payloadcms/plugin-search/client#LinkToDoc": LinkToDoc_aead06e4cbf6b2620c5c51c9ab283634,
  "@payloadcms/plugin-search/client#ReindexButton": ReindexButton_aead06e4cbf6b2620c5c51c9ab283634,
  "@/globals/SiteSettings/components/GatewayStatus#GatewayStatus": GatewayStatus_89833699b0cf2b10ead7cd8f3798fab5,
  "@/globals/SiteSettings/components/AdminBrand#AdminIcon": AdminIcon_986bb8e897925e85b744f80d8123e951,
  "@/globals/SiteSettings/components/AdminBrand#AdminLogo": AdminLogo_986bb8e897925e85b744f80d8123e951,
  "@/email/admin/EmailOff#LoginEmailOffNote": LoginEmailOffNote_268dedcbf4d37be7907c423e98601bab,
  "@/email/admin/EmailOff#EmailOffNavNote": EmailOffNavNote_268dedcbf4d37be7907c423e98601bab,
  "@/email/admin/EmailOff#EmailOffNotice": EmailOffNotice_268dedcbf4d37be7907c423e98601bab,
  "@/email/admin/EmailOff#ForgotPasswordEmailOffView": ForgotPasswordEmailOffView_268dedcbf4d37be7907c423e98601bab,
  "@payloadcms/next/rsc#CollectionCards": CollectionCards_f9c02e79a4aed9a3924487c0cd4cafb1
}
