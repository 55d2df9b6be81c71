package io.jstark;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.memory.Matrix;
import io.jstark.prover.ProgressListener;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The prover reports each pass, each table's steps inside it, then the table, in that order. */
class ProgressEventsTest {
    @Test
    void eachPassReportsItsTablesStepsBeforeTheTableAndThePassEnds() throws Exception {
        List<String> events = new ArrayList<>();
        ProgressListener recording = new ProgressListener() {
            @Override
            public synchronized void passStarted(String phase, int tables) {
                events.add("start " + phase + " " + tables);
            }

            @Override
            public synchronized void tableStep(String phase, String table, String step) {
                events.add("step " + phase + " " + table + " " + step);
            }

            @Override
            public synchronized void tableFinished(String phase, String table, long rows) {
                events.add("table " + phase + " " + table + " " + rows);
            }

            @Override
            public synchronized void passFinished(String phase) {
                events.add("end " + phase);
            }
        };
        Air fib = ClosedObjectsTest.fibonacci();
        try (Matrix trace = ClosedObjectsTest.trace();
                JstarkProver prover = Jstark.prover(List.of(fib))
                        .workerThreads(1)
                        .progress(recording)
                        .build()) {
            prover.prove(List.of(TableTrace.of(fib, trace)));
        }
        // the per-table passes; the global steps between them (phase trees, FRI, queries) are phases of the calling
        // thread
        assertThat(events)
                .containsExactly(
                        "start main_commit 1",
                        "step main_commit fibonacci lde",
                        "table main_commit fibonacci 32",
                        "end main_commit",
                        "start aux 1",
                        "table aux fibonacci 32",
                        "end aux",
                        "start composition 1",
                        "table composition fibonacci 32",
                        "end composition",
                        "start ood 1",
                        "table ood fibonacci 32",
                        "end ood",
                        "start deep 1",
                        "table deep fibonacci 32",
                        "end deep");
    }
}
