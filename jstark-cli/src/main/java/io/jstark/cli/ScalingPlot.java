package io.jstark.cli;

import io.jstark.cli.BenchScaling.Metric;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The PNG plot of {@code jstark bench scaling}: the prove time and the peak memory per size, with their fits. */
final class ScalingPlot {
    private ScalingPlot() {}

    /**
     * Two charts side by side, both on log2 axes (sizes double from point to point, so they sit evenly
     * spaced; a straight line of slope 1 is linear growth): measured medians as points, each fit as a curve
     * sampled at the measured sizes (a fitted value at or below zero has no place on a log axis and is left
     * out, the text output flags it), the legend below the plot, where it hides nothing.
     *
     * @param timeFit the n log2 n fit at each measured size, or null
     */
    static void write(
            Path file,
            String subtitle,
            double[] millionRows,
            List<Metric> metrics,
            List<LinearFit> fits,
            double[] timeFit)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        double[] x = new double[millionRows.length];
        for (int i = 0; i < x.length; i++) {
            x[i] = Math.log(millionRows[i] * 1e6) / Math.log(2);
        }
        XYChart time = chart("prove time: " + subtitle + " (median per size)", "s (log scale)");
        addPoints(time, "prove time (median, measured)", x, metrics.get(0).values());
        if (timeFit != null) {
            addCurve(time, "prove time fit: a * n log2 n + b", x, timeFit);
        }
        XYChart memory = chart("peak memory: " + subtitle + " (median per size)", "MiB (log scale)");
        for (int i = 1; i < metrics.size(); i++) {
            addPoints(
                    memory,
                    metrics.get(i).name() + " (median, measured)",
                    x,
                    metrics.get(i).values());
            if (!fits.isEmpty()) {
                LinearFit fit = fits.get(i);
                double[] fitted = new double[x.length];
                for (int j = 0; j < x.length; j++) {
                    fitted[j] = fit.at(millionRows[j]);
                }
                addCurve(
                        memory,
                        String.format(
                                Locale.ROOT,
                                "%s fit: %.3g per M rows, R^2 %.3f",
                                metrics.get(i).name(),
                                fit.slope(),
                                fit.rSquared()),
                        x,
                        fitted);
            }
        }
        BitmapEncoder.saveBitmap(List.of(time, memory), 1, 2, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static XYChart chart(String title, String unit) {
        XYChart chart = new XYChartBuilder()
                .width(640)
                .height(560)
                .title(title)
                .xAxisTitle("log2 of the rows (all tables)")
                .yAxisTitle(unit)
                .build();
        org.knowm.xchart.style.XYStyler styler = chart.getStyler();
        styler.setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        styler.setYAxisLogarithmic(true);
        styler.setXAxisDecimalPattern("0");
        styler.setChartTitleFont(styler.getChartTitleFont().deriveFont(12f));
        styler.setMarkerSize(9);
        return chart;
    }

    private static void addPoints(XYChart chart, String name, double[] x, double[] y) {
        XYSeries measured = chart.addSeries(name, x, y);
        measured.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    }

    /** A fitted curve through the measured sizes, without the points where it is at or below zero. */
    private static void addCurve(XYChart chart, String name, double[] x, double[] y) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            if (y[i] > 0) {
                xs.add(x[i]);
                ys.add(y[i]);
            }
        }
        if (xs.isEmpty()) {
            return;
        }
        XYSeries curve = chart.addSeries(name, xs, ys);
        curve.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        curve.setMarker(SeriesMarkers.NONE);
    }
}
