package io.jstark.cli;

import io.jstark.instrument.Phases;
import io.jstark.instrument.Span;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Spans;

/**
 * What the instruments cost, measured in a loop: one phase boundary as {@code prove} records it (a phase ends and
 * the next begins: memory sampled, process and thread CPU clocks read, the instrumentation span recorded), and one
 * plain span opened and closed with two fields as the prover opens them inside the tables. The best of several
 * rounds, after a warm-up, to leave out what other processes do meanwhile.
 */
record SpanCost(double boundaryNanos, double innerSpanNanos) {
    private static final int BOUNDARIES = 2_000;
    private static final int INNER_SPANS = 20_000;
    private static final int ROUNDS = 5;

    static SpanCost measure() {
        double boundary = Double.MAX_VALUE;
        double inner = Double.MAX_VALUE;
        for (int round = 0; round <= ROUNDS; round++) { // round 0 warms up
            SpanRecorder recorder = new SpanRecorder(null, ProveOutputs.memorySampler());
            Spans.start(recorder);
            try {
                long start = System.nanoTime();
                try (Phases phases = Spans.phases("bench_root")) {
                    for (int i = 0; i < BOUNDARIES; i++) {
                        phases.next(
                                "phase",
                                SpanLabels.TABLE_FIELD,
                                "t",
                                "rows",
                                i); // empty: only the boundary's own cost is measured
                    }
                }
                long boundaryNanos = System.nanoTime() - start;
                long innerNanos;
                try (Span _ = Spans.open("bench_table", SpanLabels.TABLE_FIELD, "t")) {
                    start = System.nanoTime();
                    for (int i = 0; i < INNER_SPANS; i++) {
                        try (Span _ = Spans.open("operation", SpanLabels.TABLE_FIELD, "t", "rows", i)) {
                            // empty
                        }
                    }
                    innerNanos = System.nanoTime() - start;
                }
                if (round > 0) {
                    boundary = Math.min(boundary, (double) boundaryNanos / (BOUNDARIES + 1));
                    inner = Math.min(inner, (double) innerNanos / INNER_SPANS);
                }
            } finally {
                Spans.stop(recorder);
            }
        }
        return new SpanCost(boundary, inner);
    }
}
