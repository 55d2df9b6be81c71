package io.jstark.examples;

import io.jstark.air.Air;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.List;

/** One table of a workload as the planner sees it before any trace exists: its name, definition and height. */
public record TableShape(String name, Air air, int logHeight) {
    /** @throws io.jstark.protocol.InvalidStatementException for a height the proof format or the definition cannot have */
    public TableShape {
        TableDimensions.check(name, air, logHeight);
    }

    /** The tables as the prover's planner sees them. */
    public static List<TableDimensions> dimensions(List<TableShape> shapes) {
        List<TableDimensions> out = new ArrayList<>(shapes.size());
        for (TableShape s : shapes) {
            out.add(new TableDimensions(s.name(), s.air(), s.logHeight()));
        }
        return out;
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
