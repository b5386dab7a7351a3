export * from './application-port.js';
export * from './clock.js';
export * from './forecasting.js';
export * from './grid-os.js';
export * from './information.js';
export * from './scheduler-events.js';
