import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The chart's ECharts, replaced: what the component asks of it is what is under test.
const instance = { setOption: vi.fn(), resize: vi.fn(), dispose: vi.fn() };
const init = vi.fn(() => instance);
vi.mock('./echarts.js', () => ({ echarts: { init: (...args: unknown[]) => init(...(args as [])) } }));
const { Chart } = await import('./chart.js');

/** A ResizeObserver the test fires, and the container size it reports (jsdom lays nothing out). */
let observed: (() => void) | undefined;
const size = { width: 0, height: 0 };
class TestResizeObserver {
  constructor(private readonly callback: () => void) {}
  observe() {
    observed = this.callback;
  }
  disconnect() {
    observed = undefined;
  }
}

async function resizeTo(width: number, height: number) {
  size.width = width;
  size.height = height;
  await act(async () => observed?.());
}

describe('Chart', () => {
  beforeEach(() => {
    vi.stubGlobal('ResizeObserver', TestResizeObserver);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => size.width);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(() => size.height);
    size.width = 0;
    size.height = 0;
    vi.clearAllMocks();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('draws only while its container has an area (ECharts 6.1 geo charts throw at 0×0)', async () => {
    const first = { series: [] };
    const newer = { series: [{ type: 'bar' }] };
    const view = render(<Chart option={first} label="a chart" />);
    await act(async () => undefined);
    expect(init).not.toHaveBeenCalled();

    view.rerender(<Chart option={newer} label="a chart" />);
    await resizeTo(640, 360);
    expect(init).toHaveBeenCalledTimes(1);
    expect(instance.setOption).toHaveBeenLastCalledWith(newer);

    // Hidden or detached: the chart keeps its last size instead of being resized to nothing.
    await resizeTo(0, 360);
    await resizeTo(0, 0);
    expect(instance.resize).not.toHaveBeenCalled();
    await resizeTo(320, 360);
    expect(instance.resize).toHaveBeenCalledTimes(1);

    view.unmount();
    expect(instance.dispose).toHaveBeenCalledTimes(1);
    expect(observed).toBeUndefined();
  });

  it('waits for its map to be registered before the first draw', async () => {
    let registered: () => void = () => undefined;
    const prepare = () => new Promise<void>((resolve) => (registered = resolve));
    size.width = 640;
    size.height = 360;
    render(<Chart option={{}} label="a map" prepare={prepare} />);
    await resizeTo(640, 360);
    expect(init).not.toHaveBeenCalled();
    await act(async () => registered());
    expect(init).toHaveBeenCalledTimes(1);
  });
});
