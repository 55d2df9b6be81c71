package io.jstark.cli;

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

/** {@code jstark bench}: measured proving over sizes, and the cost of the instrumentation. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks of whole proofs.",
        subcommands = {BenchCommand.Scaling.class, BenchCommand.Overhead.class, BenchCommand.Parallelism.class})
public final class BenchCommand implements java.util.concurrent.Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        return Main.missingSubcommand(spec);
    }

    private static final double MIB = 1024.0 * 1024.0;

    static String settingsLine(Example example, ProofOptionsMixin proofOptions, RunOptions run, BenchWorkload w) {
        return String.format(Locale.ROOT, "%s; %s; %d worker threads, %d cores, Java %s", example.name(), proofOptions.options(),
                w.pool().parallelism(), Runtime.getRuntime().availableProcessors(), Runtime.version())
                + "; " + loadAverage() + "; Merkle kernel " + MerkleKernel.describe(proofOptions.options())
                + VectorPathNote.line().map(note -> "\n" + note).orElse("");
    }

    /** The system's load average: on a shared machine, how much else was running. */
    static String loadAverage() {
        double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? "load average unknown" : String.format(Locale.ROOT, "load average %.2f", load);
    }

    static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : sorted[mid - 1] + (sorted[mid] - sorted[mid - 1]) / 2;
    }

    static double medianOf(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /**
     * {@code jstark bench parallelism}: the table-parallelism sweep. Proves one workload with k = 1..max
     * tables at once (runs interleaved across k, so a slow spell of the machine spreads over every k), and
     * prints median wall time, spread, peak memory and speed-up per k. The scheduler's default k is the
     * smallest k whose median is within {@value #WITHIN_FASTEST_PERCENT}% of the fastest: more
     * parallelism than that buys no time and costs memory.
     */
    @Command(name = "parallelism", mixinStandardHelpOptions = true, description = "Sweep the table parallelism k: median prove time, "
            + "peak memory and speed-up per k, and the k this data recommends as the default.")
    static final class Parallelism implements Callable<Integer> {
        static final int WITHIN_FASTEST_PERCENT = 5;

        @Mixin
        ExampleOptions example;

        @Option(names = "--max-k", description = "Largest k to try (default: ${DEFAULT-VALUE}).", defaultValue = "6")
        int maxK;

        @Option(names = "--runs", description = "Measured runs per k; the median is reported (default: ${DEFAULT-VALUE}).",
                defaultValue = "5")
        int runs;

        @Option(names = "--warmup", description = "Unmeasured runs first (default: ${DEFAULT-VALUE}).", defaultValue = "2")
        int warmup;

        @Option(names = "--output", paramLabel = "FILE", description = "Also write the report to this file.")
        Path output;

        @Mixin
        ProofOptionsMixin proofOptions;

        @Mixin
        RunOptions run;

        @Override
        public Integer call() throws IOException {
            if (maxK < 1 || runs < 1 || warmup < 0) {
                throw new Main.UsageException("--max-k and --runs must be at least 1, --warmup at least 0");
            }
            if (output != null) {
                ProveOutputs.requireWritableFile(output, "--output");
            }
            Example e = example.resolve(System.out);
            int logSize = example.logSize(e);
            StringBuilder report = new StringBuilder();
            long[][] times = new long[maxK + 1][runs];
            long[][] offHeap = new long[maxK + 1][runs];
            long[][] heap = new long[maxK + 1][runs];
            try (BenchWorkload w = new BenchWorkload(e, logSize, example.seed, proofOptions.options(), run)) {
                report.append("bench parallelism: ").append(settingsLine(e, proofOptions, run, w)).append('\n');
                report.append(String.format(Locale.ROOT, "%s at size 2^%d: %d tables, %,d rows, %,d main cells; %d measured runs per k "
                        + "(interleaved), %d warm-up%n", e.name(), logSize, w.tables(), w.rows(), w.mainCells(), runs, warmup));
                System.out.print(report);
                for (int i = 0; i < warmup; i++) {
                    run.parallelism = Integer.toString(1 + i % maxK);
                    w.prove(false);
                }
                for (int r = 0; r < runs; r++) {
                    for (int k = 1; k <= maxK; k++) {
                        run.parallelism = Integer.toString(k);
                        BenchWorkload.Sample s = w.prove(false);
                        times[k][r] = s.proveNanos();
                        offHeap[k][r] = s.offHeapPeakBytes();
                        heap[k][r] = s.heapPeakBytes();
                    }
                    System.out.printf(Locale.ROOT, "  round %d/%d done%n", r + 1, runs);
                }
            }
            TextTable table = new TextTable(TextTable.Column.right("k"), TextTable.Column.right("prove s (median)"),
                    TextTable.Column.right("min..max s"), TextTable.Column.right("cv %"), TextTable.Column.right("speed-up vs k=1"),
                    TextTable.Column.right("off-heap peak MiB"), TextTable.Column.right("heap pools peak MiB"));
            long[] medians = new long[maxK + 1];
            long fastest = Long.MAX_VALUE;
            for (int k = 1; k <= maxK; k++) {
                medians[k] = median(times[k]);
                fastest = Math.min(fastest, medians[k]);
            }
            int recommended = 1;
            for (int k = maxK; k >= 1; k--) {
                if (medians[k] <= fastest * (100 + WITHIN_FASTEST_PERCENT) / 100) {
                    recommended = k;
                }
            }
            for (int k = 1; k <= maxK; k++) {
                long min = Arrays.stream(times[k]).min().orElseThrow();
                long max = Arrays.stream(times[k]).max().orElseThrow();
                table.row(k, String.format(Locale.ROOT, "%.3f", medians[k] / 1e9), String.format(Locale.ROOT, "%.3f..%.3f", min / 1e9, max / 1e9),
                        String.format(Locale.ROOT, "%.1f", cvPercent(times[k])), String.format(Locale.ROOT, "%.2f", (double) medians[1] / medians[k]),
                        ByteSize.mib(median(offHeap[k])), ByteSize.mib(median(heap[k])));
            }
            String body = table.render() + String.format(Locale.ROOT, "recommended default k = %d: the smallest k whose median is within %d%% of "
                    + "the fastest (%.3f s)%n", recommended, WITHIN_FASTEST_PERCENT, fastest / 1e9);
            report.append('\n').append(body);
            System.out.println();
            System.out.print(body);
            if (output != null) {
                java.nio.file.Files.writeString(output, report.toString());
                System.out.println("written to " + output);
            }
            return 0;
        }

        private static double cvPercent(long[] values) {
            double mean = Arrays.stream(values).average().orElse(0);
            if (values.length < 2 || mean == 0) {
                return 0;
            }
            double sum = 0;
            for (long v : values) {
                sum += (v - mean) * (v - mean);
            }
            return 100 * Math.sqrt(sum / (values.length - 1)) / mean;
        }
    }

    /**
     * {@code jstark bench scaling}: prove time and peak memory per size; for the time, the ratio between consecutive
     * sizes next to the ratio of n log2 n and a fit a * n log2 n + b with its residuals; a line per million rows for
     * the memory (which is linear), and for the time with what that line hides.
     */
    @Command(name = "scaling", mixinStandardHelpOptions = true, description = "Prove an example at several sizes: median prove time and "
            + "peak memory per size (off-heap peak of the shared allocator, heap peak of the heap pools); for the time, the ratio "
            + "between consecutive sizes next to the n log2 n ratio and a least-squares fit a * n log2 n + b with its residuals "
            + "(n = rows per table, summed over the tables); a least-squares line per million rows for each metric (slope, R^2); "
            + "a PNG plot.")
    static final class Scaling implements Callable<Integer> {
        @Option(names = {"-e", "--example"}, description = "Example workload (default: ${DEFAULT-VALUE}).", defaultValue = "fib")
        String example;

        @Option(names = "--sizes", split = ",", description = "Sizes, 2^k or powers of two, comma-separated (default: ${DEFAULT-VALUE}).",
                defaultValue = "2^12,2^14,2^16")
        List<String> sizes;

        @Option(names = "--runs", description = "Measured runs per size; the median is reported (default: ${DEFAULT-VALUE}).",
                defaultValue = "3")
        int runs;

        @Option(names = "--warmup", description = "Unmeasured runs per size first (default: ${DEFAULT-VALUE}).", defaultValue = "1")
        int warmup;

        @Option(names = "--seed", description = "Seed of the generated traces (default: ${DEFAULT-VALUE}).", defaultValue = "1")
        long seed;

        @Option(names = "--plot", paramLabel = "FILE.png", description = "Write the plot here (default: ${DEFAULT-VALUE}; 'none' to skip).",
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
                    Point p = new Point(logSize, w.tables(), w.rows(), w.rowsLog2Rows(), w.mainCells(), times, median(times), median(offHeap),
                            median(heap));
                    System.out.printf(Locale.ROOT, "  size 2^%d: %s s%n", logSize, seconds(times));
                    points.add(p);
                }
            }
            System.out.println();
            TextTable table = new TextTable(TextTable.Column.left("size"), TextTable.Column.right("tables"), TextTable.Column.right("rows"),
                    TextTable.Column.right("main cells"), TextTable.Column.right("prove s (median)"), TextTable.Column.right("min..max s"),
                    TextTable.Column.right("off-heap peak MiB"), TextTable.Column.right("heap pools peak MiB"));
            for (Point p : points) {
                long min = Arrays.stream(p.times()).min().orElseThrow();
                long max = Arrays.stream(p.times()).max().orElseThrow();
                table.row("2^" + p.logSize(), p.tables(), String.format("%,d", p.rows()), String.format("%,d", p.cells()),
                        String.format(Locale.ROOT, "%.3f", p.medianNanos() / 1e9),
                        String.format(Locale.ROOT, "%.3f..%.3f", min / 1e9, max / 1e9), ByteSize.mib(p.offHeapBytes()), ByteSize.mib(p.heapBytes()));
            }
            System.out.print(table.render());
            List<Metric> metrics = List.of(
                    new Metric("prove time", "s", points.stream().mapToDouble(Point::seconds).toArray()),
                    new Metric("off-heap peak", "MiB", points.stream().mapToDouble(p -> p.offHeapBytes() / MIB).toArray()),
                    new Metric("heap pools peak", "MiB", points.stream().mapToDouble(p -> p.heapBytes() / MIB).toArray()));
            double[] x = points.stream().mapToDouble(p -> p.rows() / 1e6).toArray();
            List<LinearFit> fits = new ArrayList<>();
            LinearFit nLogN = null;
            if (points.size() >= 2) {
                System.out.println();
                System.out.print(growth(points));
                nLogN = LinearFit.relative(points.stream().mapToDouble(Point::rowsLog2Rows).toArray(), metrics.get(0).values());
                System.out.println();
                System.out.print(nLogNFit(points, nLogN));
                System.out.println();
                System.out.println("least-squares line per metric over the sizes (x = million rows, all tables together)");
                TextTable fitTable = new TextTable(TextTable.Column.left("metric"), TextTable.Column.right("slope per million rows"),
                        TextTable.Column.right("intercept"), TextTable.Column.right("R^2"));
                for (Metric m : metrics) {
                    LinearFit fit = LinearFit.of(x, m.values());
                    fits.add(fit);
                    fitTable.row(m.name() + " (" + m.unit() + ")", String.format(Locale.ROOT, "%.4f %s", fit.slope(), m.unit()),
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

        /** Between consecutive sizes: how much the rows, n log2 n and the time grew, and the time per million rows. */
        static String growth(List<Point> points) {
            TextTable t = new TextTable(TextTable.Column.left("from -> to"), TextTable.Column.right("rows x"),
                    TextTable.Column.right("n log2 n x"), TextTable.Column.right("prove time x"),
                    TextTable.Column.right("time x / n log2 n x"), TextTable.Column.right("s per million rows (at 'to')"));
            for (int i = 1; i < points.size(); i++) {
                Point a = points.get(i - 1);
                Point b = points.get(i);
                double time = b.seconds() / a.seconds();
                double nLogN = b.rowsLog2Rows() / a.rowsLog2Rows();
                t.row("2^" + a.logSize() + " -> 2^" + b.logSize(), ratio((double) b.rows() / a.rows()), ratio(nLogN), ratio(time),
                        ratio(time / nLogN), String.format(Locale.ROOT, "%.3f", b.seconds() / (b.rows() / 1e6)));
            }
            return "growth between consecutive sizes (n log2 n summed over the tables: an NTT-bound proof's time grows with it)\n"
                    + t.render();
        }

        /**
         * The fit a * n log2 n + b of the time ({@link LinearFit#relative}: each size counts by its relative error), with
         * the residual at each size as a share of the measured time, and what the fit's worst miss says.
         */
        static String nLogNFit(List<Point> points, LinearFit fit) {
            TextTable t = new TextTable(TextTable.Column.left("size"), TextTable.Column.right("measured s"), TextTable.Column.right("fit s"),
                    TextTable.Column.right("residual %"));
            double[] fitted = fitted(points, fit);
            int worst = 0;
            List<String> negative = new ArrayList<>();
            for (int i = 0; i < points.size(); i++) {
                double measured = points.get(i).seconds();
                double residual = (measured - fitted[i]) / measured;
                if (Math.abs(residual) > Math.abs((points.get(worst).seconds() - fitted[worst]) / points.get(worst).seconds())) {
                    worst = i;
                }
                if (fitted[i] <= 0) {
                    negative.add("2^" + points.get(i).logSize());
                }
                t.row("2^" + points.get(i).logSize(), String.format(Locale.ROOT, "%.3f", measured),
                        String.format(Locale.ROOT, "%.3f", fitted[i]) + (fitted[i] <= 0 ? " (<= 0!)" : ""),
                        String.format(Locale.ROOT, "%+.1f", 100 * residual));
            }
            Point w = points.get(worst);
            String verdict = String.format(Locale.ROOT, "the fit misses the measured time by up to %.1f%% (at 2^%d)",
                    100 * Math.abs((w.seconds() - fitted[worst]) / w.seconds()), w.logSize());
            if (!negative.isEmpty()) {
                verdict += " and predicts no time at all at " + String.join(", ", negative) + ": a * n log2 n + b does not describe"
                        + " these sizes";
            }
            return String.format(Locale.ROOT, "least-squares fit of the prove time: a * n log2 n + b, each size weighted by its relative"
                    + " error (an unweighted fit follows the largest size alone): a = %.4g ns per row x log2(rows), b = %.4f s%n",
                    fit.slope() * 1e9, fit.intercept()) + t.render() + verdict + "; a size outside the measured ones can miss by more.\n";
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
            return String.format(Locale.ROOT, "the time's line per million rows hides how the cost per row changes with the size: here %.3f s"
                    + " per million rows at 2^%d and %.3f at 2^%d (x%.2f), where n log2 n alone gives x%.2f; its slope (%.3f s) is a blend"
                    + " of them and its intercept (%+.3f s) absorbs the rest, whatever its R^2. The line describes the memory, which is"
                    + " linear; for the time, read the growth ratios and the fit's residuals above.%n", perRowFirst, first.logSize(), perRowLast, last.logSize(),
                    perRowLast / perRowFirst, (last.rowsLog2Rows() / last.rows()) / (first.rowsLog2Rows() / first.rows()), timeLine.slope(),
                    timeLine.intercept());
        }

        private static String ratio(double r) {
            return String.format(Locale.ROOT, "%.2f", r);
        }

        record Point(int logSize, int tables, long rows, double rowsLog2Rows, long cells, long[] times, long medianNanos, long offHeapBytes,
                long heapBytes) {

            double seconds() {
                return medianNanos / 1e9;
            }
        }

        record Metric(String name, String unit, double[] values) {}

        /** @param timeFit the n log2 n fit at each measured size, or null */
        /**
         * Two charts side by side, both on log2 axes (sizes double from point to point, so they sit evenly
         * spaced; a straight line of slope 1 is linear growth): measured medians as points, each fit as a curve
         * sampled at the measured sizes (a fitted value at or below zero has no place on a log axis and is left
         * out, the text output flags it), the legend below the plot, where it hides nothing.
         */
        private static void plot(Path file, String subtitle, double[] millionRows, List<Metric> metrics, List<LinearFit> fits,
                double[] timeFit) throws IOException {
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
                addPoints(memory, metrics.get(i).name() + " (median, measured)", x, metrics.get(i).values());
                if (!fits.isEmpty()) {
                    LinearFit fit = fits.get(i);
                    double[] fitted = new double[x.length];
                    for (int j = 0; j < x.length; j++) {
                        fitted[j] = fit.at(millionRows[j]);
                    }
                    addCurve(memory, String.format(Locale.ROOT, "%s fit: %.3g per M rows, R^2 %.3f", metrics.get(i).name(), fit.slope(),
                            fit.rSquared()), x, fitted);
                }
            }
            BitmapEncoder.saveBitmap(List.of(time, memory), 1, 2, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }

        private static XYChart chart(String title, String unit) {
            XYChart chart = new XYChartBuilder().width(640).height(560).title(title).xAxisTitle("log2 of the rows (all tables)")
                    .yAxisTitle(unit).build();
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

    /** {@code jstark bench overhead}: the same proof with the instrumentation on and off, alternating. */
    @Command(name = "overhead", mixinStandardHelpOptions = true, description = "Prove one workload repeatedly with the instrumentation "
            + "on (span recorder with memory sampling and the progress lines, as 'prove' runs; with --measure progress, the progress bar "
            + "alone) and off, alternating on/off/off/on so that drift cancels, and compare the medians side by side; then the "
            + "instrumentation rows of the proofs and the cost per boundary and per span.")
    static final class Overhead implements Callable<Integer> {
        @Mixin
        ExampleOptions example;

        @Option(names = "--runs", description = "Measured runs of each (default: ${DEFAULT-VALUE}).", defaultValue = "6")
        int runs;

        @Option(names = "--warmup", description = "Unmeasured runs of each first (default: ${DEFAULT-VALUE}).", defaultValue = "1")
        int warmup;

        @Option(names = "--limit", description = "Overhead allowed, in percent (default: 2, or 1 with --measure progress).")
        Double limitPercent;

        @Option(names = "--measure", description = "What 'on' adds: 'all' (the instrumentation and progress lines, as 'prove' runs "
                + "off a terminal) or 'progress' (the progress bar alone, redrawn as at a terminal into a discarding stream; no "
                + "recorder on either side). Default: ${DEFAULT-VALUE}.", defaultValue = "all")
        String measure;

        @Mixin
        ProofOptionsMixin proofOptions;

        @Mixin
        RunOptions run;

        @Override
        public Integer call() {
            if (runs < 1 || warmup < 0) {
                throw new Main.UsageException("--runs must be at least 1 and --warmup at least 0");
            }
            boolean progressOnly = switch (measure) {
                case "all" -> false;
                case "progress" -> true;
                default -> throw new Main.UsageException("--measure must be 'all' or 'progress', got '" + SafeText.of(measure) + "'");
            };
            double limitPercent = this.limitPercent != null ? this.limitPercent : progressOnly ? 1 : 2;
            Example e = example.resolve(System.out);
            int logSize = example.logSize(e);
            try (BenchWorkload w = new BenchWorkload(e, logSize, example.seed, proofOptions.options(), run)) {
                System.out.println("bench overhead: " + settingsLine(e, proofOptions, run, w) + "; size 2^" + logSize);
                System.out.printf("%d measured runs each, on/off alternating (on off off on ...), after %d warm-up run(s) each; on = %s%n",
                        runs, warmup, progressOnly ? "the progress bar alone (drawn as at a terminal, into a discarding stream)"
                                : "the instrumentation and the progress lines, as 'prove' runs");
                // the progress bar alone: neither side records spans, so the difference is the listener's calls and drawing
                ProgressReplay[] lastProgress = new ProgressReplay[1];
                java.util.function.Function<Boolean, BenchWorkload.Sample> prove = progressOnly
                        ? on -> w.prove(false, on ? (lastProgress[0] = new ProgressReplay(BenchWorkload.discardingProgress(true))) : null)
                        : w::prove;
                for (int i = 0; i < warmup; i++) {
                    prove.apply(true);
                    prove.apply(false);
                }
                long[] on = new long[runs];
                long[] off = new long[runs];
                long[] onCpu = new long[runs];
                long[] offCpu = new long[runs];
                double[] pairRatios = new double[runs];
                BenchWorkload.Sample last = null;
                long[] instrumentation = new long[runs];
                TextTable table = new TextTable(TextTable.Column.right("pair"), TextTable.Column.right("on s"), TextTable.Column.right("off s"),
                        TextTable.Column.right("on / off"), TextTable.Column.right("on cpu s"), TextTable.Column.right("off cpu s"));
                for (int i = 0; i < runs; i++) {
                    boolean onFirst = i % 2 == 0;
                    BenchWorkload.Sample first = prove.apply(onFirst);
                    BenchWorkload.Sample second = prove.apply(!onFirst);
                    BenchWorkload.Sample withSpans = onFirst ? first : second;
                    BenchWorkload.Sample without = onFirst ? second : first;
                    on[i] = withSpans.proveNanos();
                    off[i] = without.proveNanos();
                    onCpu[i] = withSpans.processCpuNanos();
                    offCpu[i] = without.processCpuNanos();
                    last = withSpans;
                    instrumentation[i] = withSpans.instrumentationNanos();
                    pairRatios[i] = (double) on[i] / off[i];
                    table.row(i + 1, secs(on[i]), secs(off[i]), String.format(Locale.ROOT, "%.4f", pairRatios[i]), secs(onCpu[i]),
                            secs(offCpu[i]));
                }
                System.out.print(table.render());
                if (!progressOnly) {
                    System.out.printf("%d spans per proof: %d phases, %d instrumentation spans (one per boundary), %d per-table and inner"
                            + " spans%n", last.spans(), last.phases(), last.instrumentationSpans(), last.plainSpans());
                    System.out.printf(Locale.ROOT, "instrumentation rows inside the proof (the instruments' work at the phase boundaries, timed"
                            + " as spans): median %.3f ms = %.3f%% of the median 'on' wall%n%n", median(instrumentation) / 1e6,
                            100.0 * median(instrumentation) / median(on));
                } else {
                    System.out.println();
                }
                TextTable summary = new TextTable(TextTable.Column.left(""), TextTable.Column.right("on"), TextTable.Column.right("off"),
                        TextTable.Column.right("on / off"));
                summary.row("median wall s", secs(median(on)), secs(median(off)), ratio(median(on), median(off)));
                summary.row("fastest wall s", secs(min(on)), secs(min(off)), ratio(min(on), min(off)));
                summary.row("median process cpu s", secs(median(onCpu)), secs(median(offCpu)), ratio(median(onCpu), median(offCpu)));
                System.out.print(summary.render());
                double ratio = (double) median(on) / median(off);
                double lowest = Arrays.stream(pairRatios).min().orElseThrow();
                double highest = Arrays.stream(pairRatios).max().orElseThrow();
                System.out.printf(Locale.ROOT, "median of the pairs' on / off: %.4f (from %.4f to %.4f)%n", medianOf(pairRatios), lowest, highest);
                // the same verdict by each measure: on a noisy machine they disagree, and no one of them is the truth
                double paired = medianOf(pairRatios);
                double cpuRatio = (double) median(onCpu) / median(offCpu);
                System.out.printf(Locale.ROOT, (progressOnly ? "progress reporting" : "instrumentation")
                        + " costs %+.2f%% of the median wall (limit %.1f%%): %s; by the median of the"
                        + " pairs' ratios %+.2f%%: %s; by the median process cpu %s%n", 100 * (ratio - 1), limitPercent,
                        verdict(ratio, limitPercent), 100 * (paired - 1), verdict(paired, limitPercent),
                        median(onCpu) < 0 || median(offCpu) <= 0 ? "-" : String.format(Locale.ROOT, "%+.2f%%: %s", 100 * (cpuRatio - 1),
                                verdict(cpuRatio, limitPercent)));
                if (highest - lowest > 2 * limitPercent / 100) {
                    System.out.println("note: the pairs spread wider than the limit: this machine's run-to-run noise is larger than what is"
                            + " measured; see the cost measured apart below");
                }
                System.out.println("at the end: " + loadAverage());
                if (progressOnly) {
                    long medianOff = median(off);
                    double bar = lastProgress[0].nanosPerProof(() -> BenchWorkload.discardingProgress(true), PROGRESS_REPLAYS);
                    double lines = lastProgress[0].nanosPerProof(() -> BenchWorkload.discardingProgress(false), PROGRESS_REPLAYS);
                    System.out.printf(Locale.ROOT, "cost measured apart: the %d progress calls of one proof, replayed %d times into a"
                            + " fresh listener (discarding stream): bar %.1f us = %.4f%% of the median proof (%s), plain lines %.1f us ="
                            + " %.4f%% (%s); an estimate free of run-to-run noise, warm%n", lastProgress[0].calls(), PROGRESS_REPLAYS,
                            bar / 1e3, 100 * bar / medianOff, verdict(1 + bar / medianOff, limitPercent), lines / 1e3,
                            100 * lines / medianOff, verdict(1 + lines / medianOff, limitPercent));
                    return 0;
                }
                SpanCost cost = SpanCost.measure();
                double estimate = last.instrumentationSpans() * cost.boundaryNanos() + last.plainSpans() * cost.innerSpanNanos();
                long medianOff = median(off);
                System.out.printf(Locale.ROOT, "cost measured apart: %.2f us per phase boundary (memory sampled, process and thread CPU read,"
                        + " instrumentation span recorded), %.2f us per other span;%n  x the %d boundaries and %d other spans of one proof"
                        + " = %.3f ms = %.3f%% of the median proof (an estimate free of run-to-run noise, warm)%n", cost.boundaryNanos() / 1e3,
                        cost.innerSpanNanos() / 1e3, last.instrumentationSpans(), last.plainSpans(), estimate / 1e6, 100 * estimate / medianOff);
                return 0;
            }
        }
    }

    /** Replays of one proof's progress calls per timed round of {@code bench overhead --measure progress}. */
    private static final int PROGRESS_REPLAYS = 2000;

    private static String verdict(double ratio, double limitPercent) {
        return 100 * (ratio - 1) <= limitPercent ? "within" : "OVER";
    }

    private static String secs(long nanos) {
        return nanos < 0 ? "-" : String.format(Locale.ROOT, "%.3f", nanos / 1e9);
    }

    private static String ratio(long a, long b) {
        return a < 0 || b <= 0 ? "-" : String.format(Locale.ROOT, "%.4f", (double) a / b);
    }

    private static long min(long[] values) {
        return Arrays.stream(values).min().orElseThrow();
    }
}
