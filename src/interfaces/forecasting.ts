// Port (4): forecasting. Given a measured series, predict its next value (NWS-style, Berman et al. 1999, §5.2.1).

export interface Forecast {
  readonly value: number;
  /** Mean absolute error the chosen predictor has made over the series so far (0 when unknown). */
  readonly meanAbsError: number;
  /** Name of the predictor that produced `value`. */
  readonly predictor: string;
}

export interface ForecastingService {
  /** Forecast the value following `series` (oldest first). Undefined for an empty series. */
  forecast(series: readonly number[]): Forecast | undefined;
}
