package io.jstark.profile.report;

import io.jstark.instrument.MemorySampler;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A hand-made proof timeline in the shape the recorder gives the prover's, times in milliseconds: thread 1 is the
 * caller, threads 2 and 3 the drivers; prove and prepass split into phases, with instrumentation spans sharing
 * the phases' boundaries. {@code gapAfterPrepassMs} leaves wall in no phase between prepass and what follows.
 */
final class SyntheticRun {
    static final long CALLER = 1;
    private final List<SpanRecord> spans = new ArrayList<>();
    private long nextId = 1;

    private SyntheticRun() {}

    static List<SpanRecord> proof(double gapAfterPrepassMs) {
        SyntheticRun r = new SyntheticRun();
        double g = gapAfterPrepassMs;
        Map<String, Object> proveFields = new LinkedHashMap<>();
        proveFields.put(SpanLabels.TILED_BY_PHASES_FIELD, true);
        proveFields.put(SpanLabels.PROOFS_COMPLETED_BEFORE_FIELD, 0L);
        proveFields.put(MemorySampler.HEAP_OPEN, 10L << 20);
        proveFields.put(MemorySampler.HEAP_CLOSE, 30L << 20);
        long prove = r.add(0, "prove", CALLER, 0, 100 + g, 150, proveFields);
        long prepass = r.add(prove, "prepass", CALLER, 0, 10, 12, Map.of(SpanLabels.TILED_BY_PHASES_FIELD, true));
        r.add(prepass, "check_statement", CALLER, 0, 1);
        r.add(prepass, "instrumentation", CALLER, 1, 1.2);
        long pre = r.add(prepass, "preprocessed_commit", CALLER, 1.2, 10);
        r.add(pre, "lde", CALLER, 1.2, 6); // the caller's own sub-operations
        r.add(pre, "merkle", CALLER, 6, 9.5);
        r.add(prove, "instrumentation", CALLER, 10 + g, 10.2 + g);
        long main = r.add(prove, "main_commit", CALLER, 10.2 + g, 30 + g, 39.6, Map.of());
        long cpu = r.table(main, "main_commit_table", "cpu", 2, 10.2 + g, 29.9 + g);
        r.add(cpu, "lde", 2, 10.2 + g, 20 + g);
        r.add(cpu, "merkle", 2, 20 + g, 29 + g);
        long ramA = r.table(main, "main_commit_table", "ram_a", 3, 10.2 + g, 18 + g);
        r.add(ramA, "lde", 3, 10.2 + g, 14 + g);
        r.add(ramA, "merkle", 3, 14 + g, 17 + g);
        long ramB = r.table(main, "main_commit_table", "ram_b", 3, 18 + g, 25 + g);
        r.add(ramB, "lde", 3, 18 + g, 21 + g);
        r.table(main, "main_commit_table", "tiny", 3, 25 + g, 25.2 + g);
        r.add(prove, "instrumentation", CALLER, 30 + g, 30.2 + g);
        long chain = r.add(prove, "aux_and_rounds_2_4", CALLER, 30.2 + g, 99.5 + g);
        long cpu2 = r.table(chain, "aux_and_rounds_2_4_table", "cpu", 2, 30.2 + g, 99.5 + g);
        long aux = r.add(cpu2, "aux_commit", 2, 30.2 + g, 40 + g);
        r.add(aux, "lde", 2, 30.2 + g, 35 + g);
        r.add(aux, "merkle", 2, 35 + g, 39 + g);
        long fri = r.add(cpu2, "fri_commit", 2, 40 + g, 60 + g);
        r.add(fri, "merkle", 2, 41 + g, 45 + g);
        r.add(cpu2, "grinding", 2, 60 + g, 61 + g);
        long ram2 = r.table(chain, "aux_and_rounds_2_4_table", "ram_a", 3, 30.2 + g, 60 + g);
        r.add(ram2, "constraint_evaluation", 3, 31 + g, 50 + g);
        r.table(chain, "aux_and_rounds_2_4_table", "ram_b", 3, 60 + g, 90 + g);
        r.table(chain, "aux_and_rounds_2_4_table", "tiny", 3, 90 + g, 90.3 + g);
        r.add(prove, "instrumentation", CALLER, 99.5 + g, 99.6 + g);
        // 1 ms of process CPU in 0.4 ms on 2 cores: more than the clock can resolve
        r.add(prove, "assemble", CALLER, 99.6 + g, 100 + g, 1, Map.of());
        return List.copyOf(r.spans);
    }

    static long nanos(double ms) {
        return Math.round(ms * 1_000_000);
    }

    long add(long parent, String label, long thread, double startMs, double endMs) {
        return add(parent, label, thread, startMs, endMs, -1, Map.of());
    }

    long table(long parent, String label, String table, long thread, double startMs, double endMs) {
        return add(parent, label, thread, startMs, endMs, -1, Map.of(SpanLabels.TABLE_FIELD, table));
    }

    /** @param processCpuMs the process CPU inside the span, -1 for none sampled */
    long add(
            long parent,
            String label,
            long thread,
            double startMs,
            double endMs,
            double processCpuMs,
            Map<String, Object> fields) {
        long id = nextId++;
        long cpuStart = processCpuMs < 0 ? -1 : 1_000_000_000L;
        long cpuEnd = processCpuMs < 0 ? -1 : cpuStart + nanos(processCpuMs);
        spans.add(new SpanRecord(
                id,
                parent,
                label,
                thread == CALLER ? "main" : "jstark-driver-" + (thread - 2),
                thread,
                nanos(startMs),
                nanos(endMs),
                -1,
                -1,
                cpuStart,
                cpuEnd,
                fields));
        return id;
    }
}
