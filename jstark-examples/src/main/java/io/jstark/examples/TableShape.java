package io.jstark.examples;

import io.jstark.air.Air;

/** One table of a workload as the planner sees it before any trace exists: its name, definition and height. */
public record TableShape(String name, Air air, int logHeight) {
    public TableShape {
        if (logHeight < 1 || logHeight > 30) {
            throw new IllegalArgumentException("table '" + name + "': height 2^" + logHeight + " out of range 2^1..2^30");
        }
        java.util.Optional<String> violation = air.heightViolation(logHeight);
        if (violation.isPresent()) {
            throw new IllegalArgumentException("table '" + name + "': " + violation.get());
        }
    }

    public int rows() {
        return 1 << logHeight;
    }

    public int mainWidth() {
        return air.mainWidth();
    }

    /** rows x main columns: the cells a prover commits to in round 1. */
    public long mainCells() {
        return (long) rows() * air.mainWidth();
    }

    @Override
    public String toString() {
        return name + " [" + air.name() + "] 2^" + logHeight + " x " + air.mainWidth()
                + (air.preprocessedWidth() > 0 ? " (+" + air.preprocessedWidth() + " preprocessed)" : "");
    }
}
