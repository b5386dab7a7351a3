export { LastValueForecaster } from './last-value.js';
export { NwsForecaster, NwsSeries } from './nws.js';
export {
  AdaptiveMedianPredictor,
  ExponentialSmoothingPredictor,
  LastValuePredictor,
  MEDIAN_WINDOWS,
  RunningMeanPredictor,
  SMOOTHING_GAINS,
  SlidingWindow,
  SlidingWindowPredictor,
  SortedWindows,
  TRIM_FRACTION,
  medianOfSorted,
  nwsBattery,
  trimmedMeanOfSorted,
  type Predictor,
} from './predictors.js';
