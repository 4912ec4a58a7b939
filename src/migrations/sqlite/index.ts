import * as migration_20261122_141307_initial from './20261122_141307_initial';
import * as migration_20261123_083400_map_layers from './20261123_083400_map_layers';
import * as migration_20261123_095027_dashboard_blocks from './20261123_095027_dashboard_blocks';
import * as migration_20261123_101048_ai_drafts_questions from './20261123_101048_ai_drafts_questions';
import * as migration_20261123_183657_ai_model_chain from './20261123_183657_ai_model_chain';
import * as migration_20261123_190110_security_names_first_admin from './20261123_190110_security_names_first_admin';
import * as migration_20261123_191724_map_basemaps_weather from './20261123_191724_map_basemaps_weather';
import * as migration_20261123_201236_drop_login_lockout from './20261123_201236_drop_login_lockout';
import * as migration_20261123_222524_chart_block from './20261123_222524_chart_block';
import * as migration_20261125_160540_ai_daily_budget from './20261125_160540_ai_daily_budget';
import * as migration_20261126_104148_email_queue_question_notify from './20261126_104148_email_queue_question_notify';
import * as migration_20261126_105332_alert_notices from './20261126_105332_alert_notices';
import * as migration_20261126_123310_optional_role_and_notice_period from './20261126_123310_optional_role_and_notice_period';
import * as migration_20261126_140015_localization from './20261126_140015_localization';
import * as migration_20261126_150640_attribute_display from './20261126_150640_attribute_display';
import * as migration_20261126_153310_accessibility_statement from './20261126_153310_accessibility_statement';
import * as migration_20261126_174000_live_throttle from './20261126_174000_live_throttle';
import * as migration_20261126_174122_account_verification from './20261126_174122_account_verification';
import * as migration_20261126_205009_drop_metadata_locale from './20261126_205009_drop_metadata_locale';

export const migrations = [
  {
    up: migration_20261122_141307_initial.up,
    down: migration_20261122_141307_initial.down,
    name: '20261122_141307_initial',
  },
  {
    up: migration_20261123_083400_map_layers.up,
    down: migration_20261123_083400_map_layers.down,
    name: '20261123_083400_map_layers',
  },
  {
    up: migration_20261123_095027_dashboard_blocks.up,
    down: migration_20261123_095027_dashboard_blocks.down,
    name: '20261123_095027_dashboard_blocks',
  },
  {
    up: migration_20261123_101048_ai_drafts_questions.up,
    down: migration_20261123_101048_ai_drafts_questions.down,
    name: '20261123_101048_ai_drafts_questions',
  },
  {
    up: migration_20261123_183657_ai_model_chain.up,
    down: migration_20261123_183657_ai_model_chain.down,
    name: '20261123_183657_ai_model_chain',
  },
  {
    up: migration_20261123_190110_security_names_first_admin.up,
    down: migration_20261123_190110_security_names_first_admin.down,
    name: '20261123_190110_security_names_first_admin',
  },
  {
    up: migration_20261123_191724_map_basemaps_weather.up,
    down: migration_20261123_191724_map_basemaps_weather.down,
    name: '20261123_191724_map_basemaps_weather',
  },
  {
    up: migration_20261123_201236_drop_login_lockout.up,
    down: migration_20261123_201236_drop_login_lockout.down,
    name: '20261123_201236_drop_login_lockout',
  },
  {
    up: migration_20261123_222524_chart_block.up,
    down: migration_20261123_222524_chart_block.down,
    name: '20261123_222524_chart_block',
  },
  {
    up: migration_20261125_160540_ai_daily_budget.up,
    down: migration_20261125_160540_ai_daily_budget.down,
    name: '20261125_160540_ai_daily_budget',
  },
  {
    up: migration_20261126_104148_email_queue_question_notify.up,
    down: migration_20261126_104148_email_queue_question_notify.down,
    name: '20261126_104148_email_queue_question_notify',
  },
  {
    up: migration_20261126_105332_alert_notices.up,
    down: migration_20261126_105332_alert_notices.down,
    name: '20261126_105332_alert_notices',
  },
  {
    up: migration_20261126_123310_optional_role_and_notice_period.up,
    down: migration_20261126_123310_optional_role_and_notice_period.down,
    name: '20261126_123310_optional_role_and_notice_period',
  },
  {
    up: migration_20261126_140015_localization.up,
    down: migration_20261126_140015_localization.down,
    name: '20261126_140015_localization',
  },
  {
    up: migration_20261126_150640_attribute_display.up,
    down: migration_20261126_150640_attribute_display.down,
    name: '20261126_150640_attribute_display',
  },
  {
    up: migration_20261126_153310_accessibility_statement.up,
    down: migration_20261126_153310_accessibility_statement.down,
    name: '20261126_153310_accessibility_statement',
  },
  {
    up: migration_20261126_174000_live_throttle.up,
    down: migration_20261126_174000_live_throttle.down,
    name: '20261126_174000_live_throttle',
  },
  {
    up: migration_20261126_174122_account_verification.up,
    down: migration_20261126_174122_account_verification.down,
    name: '20261126_174122_account_verification',
  },
  {
    up: migration_20261126_205009_drop_metadata_locale.up,
    down: migration_20261126_205009_drop_metadata_locale.down,
    name: '20261126_205009_drop_metadata_locale'
  },
];
