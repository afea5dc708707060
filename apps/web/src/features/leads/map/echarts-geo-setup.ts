import { LinesChart, ScatterChart } from 'echarts/charts';
import { GeoComponent, TooltipComponent } from 'echarts/components';
import { init, registerMap, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

// The map page's own ECharts parts (outlines, points, the radius ring), loaded only by ChinaMap:
// the other charts' setup (components/echarts-setup.ts) stays without the geo code.
use([GeoComponent, ScatterChart, LinesChart, TooltipComponent, CanvasRenderer]);

export { init, registerMap };
