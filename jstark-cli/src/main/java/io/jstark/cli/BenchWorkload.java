package io.jstark.cli;

import io.jstark.air.trace.TableTrace;
import io.jstark.examples.Example;
import io.jstark.examples.Workload;
import io.jstark.instrument.MemorySampler;
import io.jstark.instrument.ProcessCpuClock;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Spans;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Security;
import io.jstark.Jstark;
import io.jstark.JstarkProver;

/**
 * One generated workload proven again and again for the benchmarks, each proof from a fresh proving key (so
 * that every run commits the preprocessed tables, as a {@code jstark prove} does), measured like {@code prove}
 * measures: wall time of the proof, and the peaks its memory meter saw ({@link PeakMemory}).
 */
final class BenchWorkload implements AutoCloseable {
    /**
     * @param spans       spans recorded, 0 when not instrumented
     * @param callerSpans of which caller-thread spans (the phases and the caller's own operations), which also
     *                    sample process CPU and memory
     */
    record Sample(long proveNanos, long processCpuNanos, long offHeapPeakBytes, long heapPeakBytes, int spans, int callerSpans) {}

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
        int logLargest = 0;
        for (var shape : example.shapes(logSize)) {
            logLargest = Math.max(logLargest, shape.logHeight() + options.logBlowup());
        }
        Security.require(options, logLargest);
        this.workload = example.generate(logSize, seed);
        this.pool = run.threads == null ? WorkerPool.common() : WorkerPool.ofThreads(run.threads);
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

    long mainCells() {
        return workload.mainCells();
    }

    WorkerPool pool() {
        return pool;
    }

    /** One proof; with {@code instrumented}, a recorder (memory sampler included) is active, as in {@code prove}. */
    Sample prove(boolean instrumented) {
        SpanRecorder recorder = instrumented
                ? new SpanRecorder(null, MemorySampler.withOffHeap(RamAllocator.shared()::liveBytes)) : null;
        try (JstarkProver prover = run.configure(Jstark.prover(example.airs()).options(options)).pool(pool).build()) {
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
                return new Sample(nanos, cpu, peaks.offHeapBytes(), peaks.heapBytes(), 0, 0);
            }
            var tree = io.jstark.profile.analysis.SpanTree.of(recorder.records());
            int caller = 0;
            for (var span : tree.spans()) {
                caller += tree.isCallerThread(span) ? 1 : 0;
            }
            return new Sample(nanos, cpu, peaks.offHeapBytes(), peaks.heapBytes(), tree.spans().size(), caller);
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
