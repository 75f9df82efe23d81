package dev.basalt.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Grouped bar charts written as PNG with XChart (headless).
 *
 * <p>Stateless; each call builds and writes its own chart, on the report writer's thread.
 */
final class Charts {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	private Charts() {
	}

	/**
	 * @param categories x-axis categories
	 * @param series     series name to one value per category (NaN for a missing value, drawn as 0)
	 */
	static void bars(Path file, String title, String yTitle, List<String> categories, Map<String, List<Double>> series,
			boolean logarithmic) {
		if (categories.isEmpty()) {
			return;
		}
		CategoryChart chart = new CategoryChartBuilder().width(1000)
				.height(520)
				.title(title)
				.xAxisTitle("")
				.yAxisTitle(yTitle)
				.build();
		chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
		chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
		chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
		chart.getStyler().setPlotGridVerticalLinesVisible(false);
		chart.getStyler().setXAxisLabelRotation(categories.size() > 6 ? 45 : 0);
		chart.getStyler().setYAxisLogarithmic(logarithmic);
		chart.getStyler().setYAxisDecimalPattern(logarithmic ? "#,##0.###" : "#,##0");
		double floor = 0;
		if (logarithmic) {
			// A log axis cannot show zero; missing values sit at the floor, just below the smallest value.
			floor = series.values().stream().flatMap(List::stream).filter(v -> v != null && v > 0)
					.mapToDouble(Double::doubleValue).min().orElse(1) / 2;
			chart.getStyler().setYAxisMin(floor);
		}
		for (Map.Entry<String, List<Double>> e : series.entrySet()) {
			final double f = floor;
			List<Double> values = e.getValue().stream().map(v -> v == null || v.isNaN() ? f : Math.max(v, f)).toList();
			chart.addSeries(e.getKey(), categories, values);
		}
		try {
			String name = file.toString();
			String base = name.endsWith(".png") ? name.substring(0, name.length() - 4) : name;
			BitmapEncoder.saveBitmap(chart, base, BitmapEncoder.BitmapFormat.PNG);
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot write chart " + file, e);
		}
	}
}
