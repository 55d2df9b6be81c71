package io.jstark.examples;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import java.util.Arrays;

/**
 * Collects the traces of a workload under construction and frees what it allocated when generation fails
 * half-way (use in try-with-resources; {@link #build()} hands ownership to the workload).
 */
final class WorkloadBuilder implements AutoCloseable {
    private final String label;
    private final BufferAllocator allocator;
    private final TableTrace[] tables;
    private final Matrix[] pending;
    private boolean built;

    WorkloadBuilder(String label, int tableCount, BufferAllocator allocator) {
        this.label = label;
        this.allocator = allocator;
        this.tables = new TableTrace[tableCount];
        this.pending = new Matrix[tableCount];
    }

    /** A zeroed main matrix for table {@code index}, to be filled and then passed to {@link #set}. */
    Matrix allocate(int index, String name, Air air, int rows) {
        if (pending[index] != null || tables[index] != null) {
            throw new IllegalStateException("table #" + index + " '" + name + "' allocated twice");
        }
        Matrix m = Matrix.allocate(allocator, name + "/main", rows, air.mainWidth());
        pending[index] = m;
        return m;
    }

    /** Table {@code index}, its matrix filled (allocated by {@link #allocate}). */
    void set(int index, String name, Air air, long... publicInputs) {
        Matrix m = pending[index];
        if (m == null) {
            throw new IllegalStateException("table #" + index + " '" + name + "' has no matrix");
        }
        tables[index] = new TableTrace(name, air, m, publicInputs);
        pending[index] = null;
    }

    /** Table {@code index} from whole columns (column j of the trace is {@code columns[j]}). */
    void set(int index, String name, Air air, long[][] columns, long... publicInputs) {
        if (columns.length != air.mainWidth()) {
            throw new IllegalArgumentException("table '" + name + "': " + columns.length + " columns for table '"
                    + air.name() + "' of width " + air.mainWidth());
        }
        int rows = columns[0].length;
        Matrix m = allocate(index, name, air, rows);
        for (int c = 0; c < columns.length; c++) {
            m.writeColumn(c, 0, columns[c], 0, rows);
        }
        set(index, name, air, publicInputs);
    }

    Workload build() {
        for (int i = 0; i < tables.length; i++) {
            if (tables[i] == null) {
                throw new IllegalStateException("workload '" + label + "': table #" + i + " was never generated");
            }
        }
        built = true;
        return new Workload(label, Arrays.asList(tables));
    }

    @Override
    public void close() {
        if (built) {
            return;
        }
        for (Matrix m : pending) {
            if (m != null && !m.isClosed()) {
                m.close();
            }
        }
        for (TableTrace t : tables) {
            if (t != null && !t.main().isClosed()) {
                t.main().close();
            }
        }
    }
}
