package io.jstark.cli;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.trace.TableTrace;
import io.jstark.examples.Example;
import io.jstark.examples.TableShape;
import io.jstark.examples.Workload;
import io.jstark.instrument.ProcessCpuClock;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Spans;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.profile.analysis.SpanTree;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.StatementRules;
import io.jstark.prover.ProgressListener;
import io.jstark.prover.memory.TableDimensions;
import java.util.List;

/**
 * One generated workload proven again and again for the benchmarks, each proof from a fresh proving key (so
 * that every run commits the preprocessed tables, as a {@code jstark prove} does), measured like {@code prove}
 * measures: wall time of the proof, and the peaks its memory meter saw ({@link PeakMemory}).
 */
final class BenchWorkload implements AutoCloseable {
    /**
     * @param spans                spans recorded, 0 when not instrumented
     * @param phases               of which phases, {@code prove} included (they sample process CPU and memory at their
     *                             boundaries)
     * @param instrumentationSpans of which the instruments' own work at the boundaries: one per boundary, the opening
     *                             and closing ones included, all inside the proof
     * @param instrumentationNanos the wall of those, summed
     */
    record Sample(
            long proveNanos,
            long processCpuNanos,
            long offHeapPeakBytes,
            long heapPeakBytes,
            int spans,
            int phases,
            int instrumentationSpans,
            long instrumentationNanos) {

        /** Spans that are neither phases nor instrumentation: per-table spans and the operations inside. */
        int plainSpans() {
            return spans - phases - instrumentationSpans;
        }
    }

    private static final ProcessCpuClock CPU = ProcessCpuClock.get();

    private final Example example;
    private final int logSize;
    private final Workload workload;
    private final ProofOptions options;
    private final RunOptions run;
    private final WorkerPool pool;

    BenchWorkload(Example example, int logSize, long seed, ProofOptions options, RunOptions run) {
        this.example = example;
        this.logSize = logSize;
        this.options = options;
        this.run = run;
        StatementRules.requireProvable(TableDimensions.claims(TableShape.dimensions(example.shapes(logSize))), options);
        this.workload = example.generate(logSize, seed);
        int threads = run.settings().workerThreads();
        this.pool = threads == 0 ? WorkerPool.common() : WorkerPool.ofThreads(threads);
        MerkleKernel.compileBeforeMeasuring(options);
    }

    int logSize() {
        return logSize;
    }

    int tables() {
        return workload.size();
    }

    /** Rows of all tables together. */
    long rows() {
        long rows = 0;
        for (TableTrace t : workload.tables()) {
            rows += t.height();
        }
        return rows;
    }

    /** Sum over the tables of rows x log2(rows): what an NTT-bound proof's time grows with. */
    double rowsLog2Rows() {
        double sum = 0;
        for (TableTrace t : workload.tables()) {
            sum += (double) t.height() * t.logHeight();
        }
        return sum;
    }

    long mainCells() {
        return workload.mainCells();
    }

    WorkerPool pool() {
        return pool;
    }

    /**
     * One proof; with {@code instrumented}, a recorder (memory sampler included) is active and the progress
     * bar is drawn, as in {@code prove} (into a discarding stream: its formatting and flushes count, a
     * terminal's drawing does not).
     */
    Sample prove(boolean instrumented) {
        return prove(instrumented, instrumented ? discardingProgress(false) : null);
    }

    /** Progress as {@code prove} reports it, bar ({@code terminal}) or plain lines, drawn into a discarding stream. */
    static ProgressListener discardingProgress(boolean terminal) {
        return new ConsoleProgress(
                new java.io.PrintStream(
                        java.io.OutputStream.nullOutputStream(), false, java.nio.charset.StandardCharsets.UTF_8),
                terminal);
    }

    /**
     * One proof; with {@code recorded}, a recorder (memory sampler included) is active; {@code progress} (or
     * none, when null) is told of the passes.
     */
    Sample prove(boolean recorded, ProgressListener progress) {
        SpanRecorder recorder = recorded ? new SpanRecorder(null, ProveOutputs.memorySampler()) : null;
        JstarkProver.Builder builder =
                run.configure(Jstark.prover(example.airs()).options(options)).pool(pool);
        if (progress != null) {
            builder.progress(progress);
        }
        try (JstarkProver prover = builder.build()) {
            PeakMemory.collectGarbage();
            if (recorder != null) {
                Spans.start(recorder);
            }
            long cpuStart = CPU.nanos();
            long start = System.nanoTime();
            JstarkProver.Result result;
            try {
                result = prover.prove(workload.tables());
            } finally {
                if (recorder != null) {
                    Spans.stop(recorder);
                }
            }
            long nanos = System.nanoTime() - start;
            long cpu = cpuStart < 0 ? -1 : CPU.nanos() - cpuStart;
            PeakMemory.Measured peaks = PeakMemory.of(result.memory());
            if (recorder == null) {
                return new Sample(nanos, cpu, peaks.offHeapBytes(), peaks.heapBytes(), 0, 0, 0, 0);
            }
            List<SpanRecord> spans = recorder.records();
            SpanTree tree = SpanTree.of(spans);
            int phases = 0;
            int instrumentation = 0;
            long instrumentationNanos = 0;
            for (SpanRecord span : tree.spans()) {
                if (SpanTree.isInstrumentation(span)) {
                    instrumentation++;
                    instrumentationNanos += span.durationNanos();
                } else if (tree.isPhase(span)) {
                    phases++;
                }
            }
            return new Sample(
                    nanos,
                    cpu,
                    peaks.offHeapBytes(),
                    peaks.heapBytes(),
                    spans.size(),
                    phases,
                    instrumentation,
                    instrumentationNanos);
        }
    }

    @Override
    public void close() {
        workload.close();
        if (pool != WorkerPool.common()) {
            pool.close();
        }
    }
}
