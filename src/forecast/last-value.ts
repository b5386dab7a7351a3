// The constant-value forecast: the next value is the last one measured.
import type { Forecast, ForecastingService } from '../interfaces/forecasting.js';

export class LastValueForecaster implements ForecastingService {
  forecast(series: readonly number[]): Forecast | undefined {
    if (series.length === 0) return undefined;
    return { value: series[series.length - 1]!, meanAbsError: 0, predictor: 'last-value' };
  }
}
