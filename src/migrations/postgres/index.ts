import * as migration_20261122_141314_initial from './20261122_141314_initial';
import * as migration_20261123_083421_map_layers from './20261123_083421_map_layers';

export const migrations = [
  {
    up: migration_20261122_141314_initial.up,
    down: migration_20261122_141314_initial.down,
    name: '20261122_141314_initial',
  },
  {
    up: migration_20261123_083421_map_layers.up,
    down: migration_20261123_083421_map_layers.down,
    name: '20261123_083421_map_layers'
  },
];
