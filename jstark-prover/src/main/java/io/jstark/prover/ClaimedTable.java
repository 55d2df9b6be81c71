package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.List;

/**
 * A table of a proof as the transcript and the verifier see it, without its trace: its name, definition, height and
 * public inputs. Where the backend owns the traces ({@link TableOwningBackend}), this is all the prover holds of a
 * table.
 *
 * <p>A public input that is not a canonical field element is refused with an
 * {@link io.jstark.air.trace.InvalidTraceException} naming the table, as a trace's are; a backend's report is checked
 * so before the transcript absorbs it, its count and height against the statement.
 *
 * @param name the table's name in the statement
 * @param air its definition
 * @param logHeight log2 of its rows
 * @param publicInputs its public inputs (copied in and out)
 */
public record ClaimedTable(String name, Air air, int logHeight, long[] publicInputs) {
    public ClaimedTable {
        publicInputs = publicInputs.clone();
        TableTrace.requireCanonicalPublicInputs(name, air, publicInputs);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClaimedTable c
                && name.equals(c.name)
                && air == c.air
                && logHeight == c.logHeight
                && java.util.Arrays.equals(publicInputs, c.publicInputs);
    }

    @Override
    public int hashCode() {
        return (name.hashCode() * 31 + logHeight) * 31 + java.util.Arrays.hashCode(publicInputs);
    }

    @Override
    public String toString() {
        return "ClaimedTable[" + name + ", 2^" + logHeight + " rows, public inputs "
                + java.util.Arrays.toString(publicInputs) + "]";
    }

    @Override
    public long[] publicInputs() {
        return publicInputs.clone();
    }

    /**
     * {@return the claim of a filled trace}
     *
     * @param trace the table's trace
     */
    public static ClaimedTable of(TableTrace trace) {
        return new ClaimedTable(trace.name(), trace.air(), trace.logHeight(), trace.publicInputs());
    }

    /**
     * {@return the claims of these traces, in their order}
     *
     * @param traces the tables' traces
     */
    public static List<ClaimedTable> of(List<TableTrace> traces) {
        List<ClaimedTable> out = new ArrayList<>(traces.size());
        for (TableTrace t : traces) {
            out.add(of(t));
        }
        return List.copyOf(out);
    }

    /** {@return the number of rows, 2^logHeight} */
    public int height() {
        return 1 << logHeight;
    }

    /** {@return the table's shape} */
    public TableDimensions dimensions() {
        return new TableDimensions(name, air, logHeight);
    }
}
