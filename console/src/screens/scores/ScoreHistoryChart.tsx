import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { chartRows, formatDay, type ScorePoint } from '../../logic/score-history';
import { scoresMessages as text } from '../../messages/scores';
import { CHART_HEIGHT } from './chart-height';

/**
 * Resilience and readiness readings as two lines on a time axis, 0-100, readiness dashed (so the
 * lines differ by more than their colour). The caller gives the text alternative. Loaded on demand:
 * the default export is for `React.lazy`.
 */
export default function ScoreHistoryChart({ points }: { points: readonly ScorePoint[] }) {
  return (
    <LineChart
      h={CHART_HEIGHT}
      data={chartRows(points)}
      dataKey="t"
      series={[
        { name: 'resilience', label: text.series.resilience, color: 'blue.7' },
        {
          name: 'readiness',
          label: text.series.readiness,
          color: 'orange.8',
          strokeDasharray: '6 4',
        },
      ]}
      curveType="linear"
      withLegend
      legendProps={{ verticalAlign: 'bottom' }}
      xAxisProps={{
        type: 'number',
        scale: 'time',
        domain: ['dataMin', 'dataMax'],
        padding: { left: 16, right: 16 },
        tickFormatter: (ms: number) => formatDay(ms),
      }}
      yAxisProps={{ domain: [0, 100] }}
      tooltipProps={{ labelFormatter: (ms) => formatDay(Number(ms)) }}
      lineChartProps={{ accessibilityLayer: false }}
    />
  );
}
