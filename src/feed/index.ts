// The MQTT feed: topics, the public and director projections, the publisher and the subscriber's mirror.
export * from './topics.js';
export * from './patch.js';
export * from './privacy.js';
export * from './projection.js';
export * from './projector.js';
export * from './commands.js';
export * from './mqtt-feed.js';
export * from './subscriber.js';
