package io.jstark.cli;

import io.jstark.instrument.MemorySampler;
import io.jstark.instrument.Span;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Spans;
import io.jstark.math.memory.RamAllocator;

/**
 * What one recorded span costs, opened and closed with two fields as the prover opens them, measured in a loop:
 * caller-thread spans (which also read the process CPU clock and sample memory) and the other spans (inside a
 * per-table span). The best of several rounds, after a warm-up, to leave out what other processes do meanwhile.
 */
record SpanCost(double callerSpanNanos, double innerSpanNanos) {
    private static final int CALLER_SPANS = 2_000;
    private static final int INNER_SPANS = 20_000;
    private static final int ROUNDS = 5;

    static SpanCost measure() {
        double caller = Double.MAX_VALUE;
        double inner = Double.MAX_VALUE;
        for (int round = 0; round <= ROUNDS; round++) { // round 0 warms up
            SpanRecorder recorder = new SpanRecorder(null, MemorySampler.withOffHeap(RamAllocator.shared()::liveBytes));
            Spans.start(recorder);
            try (Span _ = Spans.open("bench_root")) {
                long start = System.nanoTime();
                for (int i = 0; i < CALLER_SPANS; i++) {
                    try (Span _ = Spans.open("phase", "table", "t", "rows", i)) {
                        // empty: only the span's own cost is measured
                    }
                }
                long callerNanos = System.nanoTime() - start;
                try (Span _ = Spans.open("bench_table", "table", "t")) {
                    start = System.nanoTime();
                    for (int i = 0; i < INNER_SPANS; i++) {
                        try (Span _ = Spans.open("operation", "table", "t", "rows", i)) {
                            // empty
                        }
                    }
                }
                long innerNanos = System.nanoTime() - start;
                if (round > 0) {
                    caller = Math.min(caller, (double) callerNanos / CALLER_SPANS);
                    inner = Math.min(inner, (double) innerNanos / INNER_SPANS);
                }
            } finally {
                Spans.stop(recorder);
            }
        }
        return new SpanCost(caller, inner);
    }
}
