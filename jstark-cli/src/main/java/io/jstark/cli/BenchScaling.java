package io.jstark.cli;

import static io.jstark.cli.BenchFigures.MIB;
import static io.jstark.cli.BenchFigures.median;
import static io.jstark.cli.BenchFigures.settingsLine;

import io.jstark.examples.Example;
import io.jstark.instrument.ByteSize;
import io.jstark.profile.analysis.TextTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jstark bench scaling}: prove time and peak memory per size; for the time, the ratio between consecutive
 * sizes next to the ratio of n log2 n and a fit a * n log2 n + b with its residuals; a line per million rows for
 * the memory (which is linear), and for the time with what that line hides.
 */
@Command(
        name = "scaling",
        mixinStandardHelpOptions = true,
        description = "Prove an example at several sizes: median prove time and "
                + "peak memory per size (off-heap peak of the shared allocator, heap peak of the heap pools); for the time, the ratio "
                + "between consecutive sizes next to the n log2 n ratio and a least-squares fit a * n log2 n + b with its residuals "
                + "(n = rows per table, summed over the tables); a least-squares line per million rows for each metric (slope, R^2); "
                + "a PNG plot.")
final class BenchScaling implements Callable<Integer> {
    @Option(
            names = {"-e", "--example"},
            description = "Example workload (default: ${DEFAULT-VALUE}).",
            defaultValue = "fib")
    String example;

    @Option(
            names = "--sizes",
            split = ",",
            description = "Sizes, 2^k or powers of two, comma-separated (default: ${DEFAULT-VALUE}).",
            defaultValue = "2^12,2^14,2^16")
    List<String> sizes;

    @Option(
            names = "--runs",
            description = "Measured runs per size; the median is reported (default: ${DEFAULT-VALUE}).",
            defaultValue = "3")
    int runs;

    @Option(
            names = "--warmup",
            description = "Unmeasured runs per size first (default: ${DEFAULT-VALUE}).",
            defaultValue = "1")
    int warmup;

    @Option(
            names = "--seed",
            description = "Seed of the generated traces (default: ${DEFAULT-VALUE}).",
            defaultValue = "1")
    long seed;

    @Option(
            names = "--plot",
            paramLabel = "FILE.png",
            description = "Write the plot here (default: ${DEFAULT-VALUE}; 'none' to skip).",
            defaultValue = "scaling.png")
    String plot;

    @Mixin
    ProofOptionsMixin proofOptions;

    @Mixin
    RunOptions run;

    @Override
    public Integer call() throws IOException {
        if (runs < 1 || warmup < 0) {
            throw new Main.UsageException("--runs must be at least 1 and --warmup at least 0");
        }
        if (!plot.equals("none")) {
            ProveOutputs.requireWritableFile(Path.of(plot), "--plot");
        }
        Example e = io.jstark.examples.Examples.byName(example);
        List<Integer> logSizes = new ArrayList<>();
        for (String s : sizes) {
            logSizes.add(ExampleOptions.parseSize(e, s, "--sizes"));
        }
        List<Point> points = measure(e, logSizes);
        System.out.println();
        System.out.print(sizeTable(points));
        List<Metric> metrics = List.of(
                new Metric(
                        "prove time",
                        "s",
                        points.stream().mapToDouble(Point::seconds).toArray()),
                new Metric(
                        "off-heap peak",
                        "MiB",
                        points.stream().mapToDouble(p -> p.offHeapBytes() / MIB).toArray()),
                new Metric(
                        "heap pools peak",
                        "MiB",
                        points.stream().mapToDouble(p -> p.heapBytes() / MIB).toArray()));
        double[] x = points.stream().mapToDouble(p -> p.rows() / 1e6).toArray();
        List<LinearFit> fits = new ArrayList<>();
        LinearFit nLogN = null;
        if (points.size() >= 2) {
            System.out.println();
            System.out.print(growth(points));
            nLogN = LinearFit.relative(
                    points.stream().mapToDouble(Point::rowsLog2Rows).toArray(),
                    metrics.get(0).values());
            System.out.println();
            System.out.print(nLogNFit(points, nLogN));
            System.out.println();
            System.out.println("least-squares line per metric over the sizes (x = million rows, all tables together)");
            TextTable fitTable = new TextTable(
                    TextTable.Column.left("metric"),
                    TextTable.Column.right("slope per million rows"),
                    TextTable.Column.right("intercept"),
                    TextTable.Column.right("R^2"));
            for (Metric m : metrics) {
                LinearFit fit = LinearFit.of(x, m.values());
                fits.add(fit);
                fitTable.row(
                        m.name() + " (" + m.unit() + ")",
                        String.format(Locale.ROOT, "%.4f %s", fit.slope(), m.unit()),
                        String.format(Locale.ROOT, "%.4f %s", fit.intercept(), m.unit()),
                        Double.isNaN(fit.rSquared()) ? "-" : String.format(Locale.ROOT, "%.4f", fit.rSquared()));
            }
            System.out.print(fitTable.render());
            System.out.print(whatTheLineHides(points, fits.getFirst()));
        } else {
            System.out.println("(one size: no ratio or fit)");
        }
        if (!plot.equals("none")) {
            Path file = Invocation.path(plot);
            plot(file, e.name(), x, metrics, fits, nLogN == null ? null : fitted(points, nLogN));
            System.out.println("plot written to " + file);
        }
        return 0;
    }

    /** Each size measured: its warm-up runs, then its measured runs (each printed), as a point of medians. */
    private List<Point> measure(Example e, List<Integer> logSizes) {
        List<Point> points = new ArrayList<>();
        String settings = null;
        for (int logSize : logSizes) {
            try (BenchWorkload w = new BenchWorkload(e, logSize, seed, proofOptions.options(), run)) {
                if (settings == null) {
                    settings = settingsLine(e, proofOptions, run, w);
                    System.out.println("bench scaling: " + settings);
                    System.out.printf("%d measured runs per size (median), after %d warm-up run(s)%n", runs, warmup);
                }
                for (int i = 0; i < warmup; i++) {
                    w.prove(false);
                }
                long[] times = new long[runs];
                long[] offHeap = new long[runs];
                long[] heap = new long[runs];
                for (int i = 0; i < runs; i++) {
                    BenchWorkload.Sample sample = w.prove(false);
                    times[i] = sample.proveNanos();
                    offHeap[i] = sample.offHeapPeakBytes();
                    heap[i] = sample.heapPeakBytes();
                }
                Point p = new Point(
                        logSize,
                        w.tables(),
                        w.rows(),
                        w.rowsLog2Rows(),
                        w.mainCells(),
                        times,
                        median(times),
                        median(offHeap),
                        median(heap));
                System.out.printf(Locale.ROOT, "  size 2^%d: %s s%n", logSize, seconds(times));
                points.add(p);
            }
        }
        return points;
    }

    /** A row per size: its tables, rows and cells, the median prove time and its range, the median peaks. */
    private static String sizeTable(List<Point> points) {
        TextTable table = new TextTable(
                TextTable.Column.left("size"),
                TextTable.Column.right("tables"),
                TextTable.Column.right("rows"),
                TextTable.Column.right("main cells"),
                TextTable.Column.right("prove s (median)"),
                TextTable.Column.right("min..max s"),
                TextTable.Column.right("off-heap peak MiB"),
                TextTable.Column.right("heap pools peak MiB"));
        for (Point p : points) {
            long min = Arrays.stream(p.times()).min().orElseThrow();
            long max = Arrays.stream(p.times()).max().orElseThrow();
            table.row(
                    "2^" + p.logSize(),
                    p.tables(),
                    String.format("%,d", p.rows()),
                    String.format("%,d", p.cells()),
                    String.format(Locale.ROOT, "%.3f", p.medianNanos() / 1e9),
                    String.format(Locale.ROOT, "%.3f..%.3f", min / 1e9, max / 1e9),
                    ByteSize.mib(p.offHeapBytes()),
                    ByteSize.mib(p.heapBytes()));
        }
        return table.render();
    }

    /** Between consecutive sizes: how much the rows, n log2 n and the time grew, and the time per million rows. */
    static String growth(List<Point> points) {
        TextTable t = new TextTable(
                TextTable.Column.left("from -> to"),
                TextTable.Column.right("rows x"),
                TextTable.Column.right("n log2 n x"),
                TextTable.Column.right("prove time x"),
                TextTable.Column.right("time x / n log2 n x"),
                TextTable.Column.right("s per million rows (at 'to')"));
        for (int i = 1; i < points.size(); i++) {
            Point a = points.get(i - 1);
            Point b = points.get(i);
            double time = b.seconds() / a.seconds();
            double nLogN = b.rowsLog2Rows() / a.rowsLog2Rows();
            t.row(
                    "2^" + a.logSize() + " -> 2^" + b.logSize(),
                    ratio((double) b.rows() / a.rows()),
                    ratio(nLogN),
                    ratio(time),
                    ratio(time / nLogN),
                    String.format(Locale.ROOT, "%.3f", b.seconds() / (b.rows() / 1e6)));
        }
        return "growth between consecutive sizes (n log2 n summed over the tables: an NTT-bound proof's time grows with it)\n"
                + t.render();
    }

    /**
     * The fit a * n log2 n + b of the time ({@link LinearFit#relative}: each size counts by its relative error), with
     * the residual at each size as a share of the measured time, and what the fit's worst miss says.
     */
    static String nLogNFit(List<Point> points, LinearFit fit) {
        TextTable t = new TextTable(
                TextTable.Column.left("size"),
                TextTable.Column.right("measured s"),
                TextTable.Column.right("fit s"),
                TextTable.Column.right("residual %"));
        double[] fitted = fitted(points, fit);
        int worst = 0;
        List<String> negative = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            double measured = points.get(i).seconds();
            double residual = (measured - fitted[i]) / measured;
            if (Math.abs(residual)
                    > Math.abs((points.get(worst).seconds() - fitted[worst])
                            / points.get(worst).seconds())) {
                worst = i;
            }
            if (fitted[i] <= 0) {
                negative.add("2^" + points.get(i).logSize());
            }
            t.row(
                    "2^" + points.get(i).logSize(),
                    String.format(Locale.ROOT, "%.3f", measured),
                    String.format(Locale.ROOT, "%.3f", fitted[i]) + (fitted[i] <= 0 ? " (<= 0!)" : ""),
                    String.format(Locale.ROOT, "%+.1f", 100 * residual));
        }
        Point w = points.get(worst);
        String verdict = String.format(
                Locale.ROOT,
                "the fit misses the measured time by up to %.1f%% (at 2^%d)",
                100 * Math.abs((w.seconds() - fitted[worst]) / w.seconds()),
                w.logSize());
        if (!negative.isEmpty()) {
            verdict += " and predicts no time at all at " + String.join(", ", negative)
                    + ": a * n log2 n + b does not describe" + " these sizes";
        }
        return String.format(
                        Locale.ROOT,
                        "least-squares fit of the prove time: a * n log2 n + b, each size weighted by its relative"
                                + " error (an unweighted fit follows the largest size alone): a = %.4g ns per row x log2(rows), b = %.4f s%n",
                        fit.slope() * 1e9,
                        fit.intercept())
                + t.render() + verdict + "; a size outside the measured ones can miss by more.\n";
    }

    static double[] fitted(List<Point> points, LinearFit fit) {
        return points.stream().mapToDouble(p -> fit.at(p.rowsLog2Rows())).toArray();
    }

    /** What one slope per million rows leaves out, from this run's own figures. */
    static String whatTheLineHides(List<Point> points, LinearFit timeLine) {
        Point first = points.getFirst();
        Point last = points.getLast();
        double perRowFirst = first.seconds() / (first.rows() / 1e6);
        double perRowLast = last.seconds() / (last.rows() / 1e6);
        return String.format(
                Locale.ROOT,
                "the time's line per million rows hides how the cost per row changes with the size: here %.3f s"
                        + " per million rows at 2^%d and %.3f at 2^%d (x%.2f), where n log2 n alone gives x%.2f; its slope (%.3f s) is a blend"
                        + " of them and its intercept (%+.3f s) absorbs the rest, whatever its R^2. The line describes the memory, which is"
                        + " linear; for the time, read the growth ratios and the fit's residuals above.%n",
                perRowFirst,
                first.logSize(),
                perRowLast,
                last.logSize(),
                perRowLast / perRowFirst,
                (last.rowsLog2Rows() / last.rows()) / (first.rowsLog2Rows() / first.rows()),
                timeLine.slope(),
                timeLine.intercept());
    }

    private static String ratio(double r) {
        return String.format(Locale.ROOT, "%.2f", r);
    }

    record Point(
            int logSize,
            int tables,
            long rows,
            double rowsLog2Rows,
            long cells,
            long[] times,
            long medianNanos,
            long offHeapBytes,
            long heapBytes) {

        double seconds() {
            return medianNanos / 1e9;
        }
    }

    record Metric(String name, String unit, double[] values) {}

    /**
     * Two charts side by side, both on log2 axes (sizes double from point to point, so they sit evenly
     * spaced; a straight line of slope 1 is linear growth): measured medians as points, each fit as a curve
     * sampled at the measured sizes (a fitted value at or below zero has no place on a log axis and is left
     * out, the text output flags it), the legend below the plot, where it hides nothing.
     *
     * @param timeFit the n log2 n fit at each measured size, or null
     */
    private static void plot(
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

    private static String seconds(long[] times) {
        StringBuilder out = new StringBuilder();
        for (long t : times) {
            out.append(out.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%.3f", t / 1e9));
        }
        return out.toString();
    }
}
