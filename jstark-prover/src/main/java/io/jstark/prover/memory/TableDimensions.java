package io.jstark.prover.memory;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;

/**
 * One table as the memory model sees it: everything the prover's allocations depend on, known before any
 * trace exists (so a plan can be made before generating the workload).
 *
 * @param name the table's name in the proof (what storage policies and the report key on)
 * @param air its definition
 * @param logHeight log2 of its row count
 */
public record TableDimensions(String name, Air air, int logHeight) {
    public TableDimensions {
        if (logHeight < 0 || logHeight > 30) {
            throw new IllegalArgumentException("table '" + name + "': height 2^" + logHeight + " is outside 2^0..2^30");
        }
        java.util.Optional<String> violation = air.heightViolation(logHeight);
        if (violation.isPresent()) {
            throw new IllegalArgumentException("table '" + name + "': " + violation.get());
        }
    }

    public static TableDimensions of(TableTrace trace) {
        return new TableDimensions(trace.name(), trace.air(), trace.logHeight());
    }

    public int rows() {
        return 1 << logHeight;
    }
}
