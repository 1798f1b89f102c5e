/** Height of the score history chart and of its placeholder while the chart library loads, px. */
export const CHART_HEIGHT = 220;
