package io.jstark.storage;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.prover.TestAirs;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.List;

/** The storage tests' workload: a wide degree-2 table, two bus senders and their preprocessed receiver. */
final class StorageTestAirs {
    private StorageTestAirs() {}

    static List<Air> airs() {
        return List.of(TestAirs.WIDE, TestAirs.SENDER, TestAirs.BYTES);
    }

    /** wide 2^logWide, two senders, the receiver. */
    static List<TableTrace> workload(int logWide) {
        TableTrace s1 = TestAirs.senderTrace("sender-a", 9, 1);
        TableTrace s2 = TestAirs.senderTrace("sender-b", 6, 2);
        List<TableTrace> traces = new ArrayList<>();
        traces.add(TestAirs.wideTrace("wide", logWide, 3));
        traces.add(s1);
        traces.add(TestAirs.bytesTrace(List.of(s1, s2)));
        traces.add(s2);
        return traces;
    }

    static List<TableDimensions> dimensions(List<TableTrace> traces) {
        List<TableDimensions> out = new ArrayList<>();
        for (TableTrace t : traces) {
            out.add(TableDimensions.of(t));
        }
        return out;
    }

    static void close(List<TableTrace> traces) {
        TestAirs.close(traces);
    }
}
