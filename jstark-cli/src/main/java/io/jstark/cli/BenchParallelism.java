package io.jstark.cli;

import static io.jstark.cli.BenchFigures.median;
import static io.jstark.cli.BenchFigures.settingsLine;

import io.jstark.examples.Example;
import io.jstark.instrument.ByteSize;
import io.jstark.profile.analysis.TextTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jstark bench parallelism}: the table-parallelism sweep. Proves one workload with k = 1..max
 * tables at once (runs interleaved across k, so a slow spell of the machine spreads over every k), and
 * prints median wall time, spread, peak memory and speed-up per k. The scheduler's default k is the
 * smallest k whose median is within {@value #WITHIN_FASTEST_PERCENT}% of the fastest: more
 * parallelism than that buys no time and costs memory.
 */
@Command(
        name = "parallelism",
        mixinStandardHelpOptions = true,
        description = "Sweep the table parallelism k: median prove time, "
                + "peak memory and speed-up per k, and the k this data recommends as the default.")
final class BenchParallelism implements Callable<Integer> {
    static final int WITHIN_FASTEST_PERCENT = 5;

    @Mixin
    ExampleOptions example;

    @Option(names = "--max-k", description = "Largest k to try (default: ${DEFAULT-VALUE}).", defaultValue = "6")
    int maxK;

    @Option(
            names = "--runs",
            description = "Measured runs per k; the median is reported (default: ${DEFAULT-VALUE}).",
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
        Samples samples;
        try (BenchWorkload w = new BenchWorkload(e, logSize, example.seed, proofOptions.options(), run)) {
            report.append("bench parallelism: ")
                    .append(settingsLine(e, proofOptions, run, w))
                    .append('\n');
            report.append(String.format(
                    Locale.ROOT,
                    "%s at size 2^%d: %d tables, %,d rows, %,d main cells; %d measured runs per k "
                            + "(interleaved), %d warm-up%n",
                    e.name(),
                    logSize,
                    w.tables(),
                    w.rows(),
                    w.mainCells(),
                    runs,
                    warmup));
            System.out.print(report);
            samples = measure(w);
        }
        String body = sweepTable(samples);
        report.append('\n').append(body);
        System.out.println();
        System.out.print(body);
        if (output != null) {
            java.nio.file.Files.writeString(output, report.toString());
            System.out.println("written to " + output);
        }
        return 0;
    }

    /** Per k (index 1..max-k) and measured run: the prove time and the peaks of one proof. */
    private record Samples(long[][] times, long[][] offHeap, long[][] heap) {}

    /** The warm-up runs, then rounds of one proof per k, so that a slow spell of the machine spreads over every k. */
    private Samples measure(BenchWorkload w) {
        Samples samples = new Samples(new long[maxK + 1][runs], new long[maxK + 1][runs], new long[maxK + 1][runs]);
        for (int i = 0; i < warmup; i++) {
            run.parallelism = Integer.toString(1 + i % maxK);
            w.prove(false);
        }
        for (int r = 0; r < runs; r++) {
            for (int k = 1; k <= maxK; k++) {
                run.parallelism = Integer.toString(k);
                BenchWorkload.Sample s = w.prove(false);
                samples.times()[k][r] = s.proveNanos();
                samples.offHeap()[k][r] = s.offHeapPeakBytes();
                samples.heap()[k][r] = s.heapPeakBytes();
            }
            System.out.printf(Locale.ROOT, "  round %d/%d done%n", r + 1, runs);
        }
        return samples;
    }

    /** A row per k, then the recommended default k. */
    private String sweepTable(Samples samples) {
        long[][] times = samples.times();
        TextTable table = new TextTable(
                TextTable.Column.right("k"),
                TextTable.Column.right("prove s (median)"),
                TextTable.Column.right("min..max s"),
                TextTable.Column.right("cv %"),
                TextTable.Column.right("speed-up vs k=1"),
                TextTable.Column.right("off-heap peak MiB"),
                TextTable.Column.right("heap pools peak MiB"));
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
            table.row(
                    k,
                    String.format(Locale.ROOT, "%.3f", medians[k] / 1e9),
                    String.format(Locale.ROOT, "%.3f..%.3f", min / 1e9, max / 1e9),
                    String.format(Locale.ROOT, "%.1f", cvPercent(times[k])),
                    String.format(Locale.ROOT, "%.2f", (double) medians[1] / medians[k]),
                    ByteSize.mib(median(samples.offHeap()[k])),
                    ByteSize.mib(median(samples.heap()[k])));
        }
        return table.render()
                + String.format(
                        Locale.ROOT,
                        "recommended default k = %d: the smallest k whose median is within %d%% of "
                                + "the fastest (%.3f s)%n",
                        recommended,
                        WITHIN_FASTEST_PERCENT,
                        fastest / 1e9);
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
