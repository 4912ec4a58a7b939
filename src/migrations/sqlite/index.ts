import * as migration_20261122_141307_initial from './20261122_141307_initial';
import * as migration_20261123_083400_map_layers from './20261123_083400_map_layers';

export const migrations = [
  {
    up: migration_20261122_141307_initial.up,
    down: migration_20261122_141307_initial.down,
    name: '20261122_141307_initial',
  },
  {
    up: migration_20261123_083400_map_layers.up,
    down: migration_20261123_083400_map_layers.down,
    name: '20261123_083400_map_layers'
  },
];
