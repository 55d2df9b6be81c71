package io.jstark.cli;

import static io.jstark.cli.BenchFigures.MIB;
import static io.jstark.cli.BenchFigures.median;
import static io.jstark.cli.BenchFigures.settingsLine;

import io.jstark.examples.Example;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jstark bench scaling}: prove time and peak memory per size; for the time, the ratio between consecutive
 * sizes next to the ratio of n log2 n and a fit a * n log2 n + b with its residuals; a line per million rows for
 * the memory (which is linear), and for the time with what that line hides. {@link ScalingTables} writes the tables,
 * {@link ScalingPlot} the plot.
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
        System.out.print(ScalingTables.sizeTable(points));
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
            System.out.print(ScalingTables.growth(points));
            nLogN = LinearFit.relative(
                    points.stream().mapToDouble(Point::rowsLog2Rows).toArray(),
                    metrics.get(0).values());
            System.out.println();
            System.out.print(ScalingTables.nLogNFit(points, nLogN));
            for (Metric m : metrics) {
                fits.add(LinearFit.of(x, m.values()));
            }
            System.out.println();
            System.out.print(ScalingTables.lineTable(metrics, fits));
            System.out.print(ScalingTables.whatTheLineHides(points, fits.getFirst()));
        } else {
            System.out.println("(one size: no ratio or fit)");
        }
        if (!plot.equals("none")) {
            Path file = Invocation.path(plot);
            ScalingPlot.write(
                    file, e.name(), x, metrics, fits, nLogN == null ? null : ScalingTables.fitted(points, nLogN));
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

    private static String seconds(long[] times) {
        StringBuilder out = new StringBuilder();
        for (long t : times) {
            out.append(out.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%.3f", t / 1e9));
        }
        return out.toString();
    }
}
