package io.jstark.cli;

import io.jstark.examples.Example;
import java.util.Arrays;
import java.util.Locale;

/** What every {@code jstark bench} subcommand reports alike: the run's settings line and medians (sizes in MiB: {@code ByteSize.mib}). */
final class BenchFigures {
    static final double MIB = 1024.0 * 1024.0;

    private BenchFigures() {}

    static String settingsLine(Example example, ProofOptionsMixin proofOptions, RunOptions run, BenchWorkload w) {
        return String.format(
                        Locale.ROOT,
                        "%s; %s; %d worker threads, %d cores, Java %s",
                        example.name(),
                        proofOptions.options(),
                        w.pool().parallelism(),
                        Runtime.getRuntime().availableProcessors(),
                        Runtime.version())
                + "; " + loadAverage() + "; Merkle kernel " + MerkleKernel.describe(proofOptions.options())
                + VectorPathNote.line().map(note -> "\n" + note).orElse("");
    }

    /** The system's load average: on a shared machine, how much else was running. */
    static String loadAverage() {
        double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                .getSystemLoadAverage();
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
}
