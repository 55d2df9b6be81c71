package io.jstark.cli;

import static io.jstark.cli.BenchFigures.loadAverage;
import static io.jstark.cli.BenchFigures.median;
import static io.jstark.cli.BenchFigures.medianOf;
import static io.jstark.cli.BenchFigures.settingsLine;

import io.jstark.examples.Example;
import io.jstark.profile.analysis.TextTable;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code jstark bench overhead}: the same proof with the instrumentation on and off, alternating. */
@Command(
        name = "overhead",
        mixinStandardHelpOptions = true,
        description = "Prove one workload repeatedly with the instrumentation "
                + "on (span recorder with memory sampling and the progress lines, as 'prove' runs; with --measure progress, the progress bar "
                + "alone) and off, alternating on/off/off/on so that drift cancels, and compare the medians side by side; then the "
                + "instrumentation rows of the proofs and the cost per boundary and per span.")
final class BenchOverhead implements Callable<Integer> {
    @Mixin
    ExampleOptions example;

    @Option(names = "--runs", description = "Measured runs of each (default: ${DEFAULT-VALUE}).", defaultValue = "6")
    int runs;

    @Option(
            names = "--warmup",
            description = "Unmeasured runs of each first (default: ${DEFAULT-VALUE}).",
            defaultValue = "1")
    int warmup;

    @Option(names = "--limit", description = "Overhead allowed, in percent (default: 2, or 1 with --measure progress).")
    Double limitPercent;

    @Option(
            names = "--measure",
            description = "What 'on' adds: 'all' (the instrumentation and progress lines, as 'prove' runs "
                    + "off a terminal) or 'progress' (the progress bar alone, redrawn as at a terminal into a discarding stream; no "
                    + "recorder on either side). Default: ${DEFAULT-VALUE}.",
            defaultValue = "all")
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
            default ->
                throw new Main.UsageException(
                        "--measure must be 'all' or 'progress', got '" + SafeText.of(measure) + "'");
        };
        double limitPercent = this.limitPercent != null ? this.limitPercent : progressOnly ? 1 : 2;
        Example e = example.resolve(System.out);
        int logSize = example.logSize(e);
        try (BenchWorkload w = new BenchWorkload(e, logSize, example.seed, proofOptions.options(), run)) {
            System.out.println("bench overhead: " + settingsLine(e, proofOptions, run, w) + "; size 2^" + logSize);
            System.out.printf(
                    "%d measured runs each, on/off alternating (on off off on ...), after %d warm-up run(s) each; on = %s%n",
                    runs,
                    warmup,
                    progressOnly
                            ? "the progress bar alone (drawn as at a terminal, into a discarding stream)"
                            : "the instrumentation and the progress lines, as 'prove' runs");
            // the progress bar alone: neither side records spans, so the difference is the listener's calls and drawing
            ProgressReplay[] lastProgress = new ProgressReplay[1];
            Function<Boolean, BenchWorkload.Sample> prove = progressOnly
                    ? on -> w.prove(
                            false,
                            on ? (lastProgress[0] = new ProgressReplay(BenchWorkload.discardingProgress(true))) : null)
                    : w::prove;
            for (int i = 0; i < warmup; i++) {
                prove.apply(true);
                prove.apply(false);
            }
            Pairs pairs = measurePairs(prove);
            if (!progressOnly) {
                BenchWorkload.Sample last = pairs.last();
                System.out.printf(
                        "%d spans per proof: %d phases, %d instrumentation spans (one per boundary), %d per-table and inner"
                                + " spans%n",
                        last.spans(), last.phases(), last.instrumentationSpans(), last.plainSpans());
                System.out.printf(
                        Locale.ROOT,
                        "instrumentation rows inside the proof (the instruments' work at the phase boundaries, timed"
                                + " as spans): median %.3f ms = %.3f%% of the median 'on' wall%n%n",
                        median(pairs.instrumentation()) / 1e6,
                        100.0 * median(pairs.instrumentation()) / median(pairs.on()));
            } else {
                System.out.println();
            }
            summarize(pairs, limitPercent, progressOnly);
            if (progressOnly) {
                progressCostApart(lastProgress[0], median(pairs.off()), limitPercent);
            } else {
                spanCostApart(pairs.last(), median(pairs.off()));
            }
            return 0;
        }
    }

    /** Each pair's wall and process CPU time on and off, their ratios, and the last proof measured with the instrumentation on. */
    private record Pairs(
            long[] on,
            long[] off,
            long[] onCpu,
            long[] offCpu,
            double[] pairRatios,
            long[] instrumentation,
            BenchWorkload.Sample last) {}

    /** The measured pairs, 'on' first in every other one so that drift cancels, each printed as a row. */
    private Pairs measurePairs(Function<Boolean, BenchWorkload.Sample> prove) {
        long[] on = new long[runs];
        long[] off = new long[runs];
        long[] onCpu = new long[runs];
        long[] offCpu = new long[runs];
        double[] pairRatios = new double[runs];
        BenchWorkload.Sample last = null;
        long[] instrumentation = new long[runs];
        TextTable table = new TextTable(
                TextTable.Column.right("pair"),
                TextTable.Column.right("on s"),
                TextTable.Column.right("off s"),
                TextTable.Column.right("on / off"),
                TextTable.Column.right("on cpu s"),
                TextTable.Column.right("off cpu s"));
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
            table.row(
                    i + 1,
                    secs(on[i]),
                    secs(off[i]),
                    String.format(Locale.ROOT, "%.4f", pairRatios[i]),
                    secs(onCpu[i]),
                    secs(offCpu[i]));
        }
        System.out.print(table.render());
        return new Pairs(on, off, onCpu, offCpu, pairRatios, instrumentation, last);
    }

    /** The medians side by side and the verdict by each measure, with a note where the pairs spread wider than the limit. */
    private static void summarize(Pairs pairs, double limitPercent, boolean progressOnly) {
        long[] on = pairs.on();
        long[] off = pairs.off();
        long[] onCpu = pairs.onCpu();
        long[] offCpu = pairs.offCpu();
        double[] pairRatios = pairs.pairRatios();
        TextTable summary = new TextTable(
                TextTable.Column.left(""),
                TextTable.Column.right("on"),
                TextTable.Column.right("off"),
                TextTable.Column.right("on / off"));
        summary.row("median wall s", secs(median(on)), secs(median(off)), ratio(median(on), median(off)));
        summary.row("fastest wall s", secs(min(on)), secs(min(off)), ratio(min(on), min(off)));
        summary.row(
                "median process cpu s",
                secs(median(onCpu)),
                secs(median(offCpu)),
                ratio(median(onCpu), median(offCpu)));
        System.out.print(summary.render());
        double ratio = (double) median(on) / median(off);
        double lowest = Arrays.stream(pairRatios).min().orElseThrow();
        double highest = Arrays.stream(pairRatios).max().orElseThrow();
        System.out.printf(
                Locale.ROOT,
                "median of the pairs' on / off: %.4f (from %.4f to %.4f)%n",
                medianOf(pairRatios),
                lowest,
                highest);
        // the same verdict by each measure: on a noisy machine they disagree, and no one of them is the truth
        double paired = medianOf(pairRatios);
        double cpuRatio = (double) median(onCpu) / median(offCpu);
        System.out.printf(
                Locale.ROOT,
                (progressOnly ? "progress reporting" : "instrumentation")
                        + " costs %+.2f%% of the median wall (limit %.1f%%): %s; by the median of the"
                        + " pairs' ratios %+.2f%%: %s; by the median process cpu %s%n",
                100 * (ratio - 1),
                limitPercent,
                verdict(ratio, limitPercent),
                100 * (paired - 1),
                verdict(paired, limitPercent),
                median(onCpu) < 0 || median(offCpu) <= 0
                        ? "-"
                        : String.format(
                                Locale.ROOT, "%+.2f%%: %s", 100 * (cpuRatio - 1), verdict(cpuRatio, limitPercent)));
        if (highest - lowest > 2 * limitPercent / 100) {
            System.out.println(
                    "note: the pairs spread wider than the limit: this machine's run-to-run noise is larger than what is"
                            + " measured; see the cost measured apart below");
        }
        System.out.println("at the end: " + loadAverage());
    }

    /** The progress calls of the last 'on' proof, replayed into fresh listeners: the bar's and the plain lines' cost apart from the proof. */
    private static void progressCostApart(ProgressReplay lastProgress, long medianOff, double limitPercent) {
        double bar = lastProgress.nanosPerProof(() -> BenchWorkload.discardingProgress(true), PROGRESS_REPLAYS);
        double lines = lastProgress.nanosPerProof(() -> BenchWorkload.discardingProgress(false), PROGRESS_REPLAYS);
        System.out.printf(
                Locale.ROOT,
                "cost measured apart: the %d progress calls of one proof, replayed %d times into a"
                        + " fresh listener (discarding stream): bar %.1f us = %.4f%% of the median proof (%s), plain lines %.1f us ="
                        + " %.4f%% (%s); an estimate free of run-to-run noise, warm%n",
                lastProgress.calls(),
                PROGRESS_REPLAYS,
                bar / 1e3,
                100 * bar / medianOff,
                verdict(1 + bar / medianOff, limitPercent),
                lines / 1e3,
                100 * lines / medianOff,
                verdict(1 + lines / medianOff, limitPercent));
    }

    /** The instrumentation's cost per boundary and per span, measured apart, times the spans of one proof. */
    private static void spanCostApart(BenchWorkload.Sample last, long medianOff) {
        SpanCost cost = SpanCost.measure();
        double estimate =
                last.instrumentationSpans() * cost.boundaryNanos() + last.plainSpans() * cost.innerSpanNanos();
        System.out.printf(
                Locale.ROOT,
                "cost measured apart: %.2f us per phase boundary (memory sampled, process and thread CPU read,"
                        + " instrumentation span recorded), %.2f us per other span;%n  x the %d boundaries and %d other spans of one proof"
                        + " = %.3f ms = %.3f%% of the median proof (an estimate free of run-to-run noise, warm)%n",
                cost.boundaryNanos() / 1e3,
                cost.innerSpanNanos() / 1e3,
                last.instrumentationSpans(),
                last.plainSpans(),
                estimate / 1e6,
                100 * estimate / medianOff);
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
