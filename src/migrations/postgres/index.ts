import * as migration_20261122_141314_initial from './20261122_141314_initial';

export const migrations = [
  {
    up: migration_20261122_141314_initial.up,
    down: migration_20261122_141314_initial.down,
    name: '20261122_141314_initial'
  },
];
