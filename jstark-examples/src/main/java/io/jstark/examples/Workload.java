package io.jstark.examples;

import io.jstark.air.trace.TableTrace;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The traces of one example instance, in table-index order (the order a proof lists its tables). The
 * workload owns the matrices: closing it frees them all.
 */
public final class Workload implements AutoCloseable {
    private final String label;
    private final List<TableTrace> tables;

    /**
     * @param label what generated it, for messages and reports (e.g. "vm(logSize=12, seed=1)")
     * @param tables distinct names, table-index order; ownership of the matrices passes to the workload
     */
    public Workload(String label, List<TableTrace> tables) {
        this.label = label;
        this.tables = List.copyOf(tables);
        Set<String> names = new HashSet<>();
        for (TableTrace t : this.tables) {
            if (!names.add(t.name())) {
                throw new IllegalArgumentException("workload '" + label + "' has two tables named '" + t.name() + "'");
            }
        }
    }

    public String label() {
        return label;
    }

    public List<TableTrace> tables() {
        return tables;
    }

    public int size() {
        return tables.size();
    }

    /** The table called {@code name}. */
    public TableTrace table(String name) {
        return tables.get(indexOf(name));
    }

    /** The index of the table called {@code name}. */
    public int indexOf(String name) {
        for (int i = 0; i < tables.size(); i++) {
            if (tables.get(i).name().equals(name)) {
                return i;
            }
        }
        List<String> names = new ArrayList<>();
        for (TableTrace t : tables) {
            names.add(t.name());
        }
        throw new IllegalArgumentException(
                "workload '" + label + "' has no table '" + name + "'; tables: " + String.join(", ", names));
    }

    public List<TableShape> shapes() {
        List<TableShape> shapes = new ArrayList<>(tables.size());
        for (TableTrace t : tables) {
            shapes.add(new TableShape(t.name(), t.air(), t.logHeight()));
        }
        return shapes;
    }

    /** Sum of rows x main columns over all tables. */
    public long mainCells() {
        long cells = 0;
        for (TableTrace t : tables) {
            cells += (long) t.height() * t.main().columns();
        }
        return cells;
    }

    /** Frees every matrix; idempotent. */
    @Override
    public void close() {
        for (TableTrace t : tables) {
            if (!t.main().isClosed()) {
                t.main().close();
            }
        }
    }

    @Override
    public String toString() {
        return "Workload[" + label + ", " + tables.size() + " tables, " + mainCells() + " main cells]";
    }
}
