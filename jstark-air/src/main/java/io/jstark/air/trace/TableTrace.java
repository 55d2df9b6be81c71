package io.jstark.air.trace;

import io.jstark.air.Air;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;

/**
 * One table instance to prove: its definition, its main trace (natural row order, 2^k rows) and its
 * public inputs. The matrix is owned by the caller (closing it is theirs to do after proving).
 *
 * @param name the table's name in the statement (distinct within a proof)
 * @param air its definition
 * @param main the main trace: {@code air.mainWidth()} columns, a power of two (at least 2) of rows
 * @param publicInputs the values of the definition's public inputs, in declaration order, canonical field
 *     elements (copied in and out)
 */
public record TableTrace(String name, Air air, Matrix main, long[] publicInputs) {
    /**
     * Checks the trace's shape against its definition.
     *
     * @throws InvalidTraceException naming the table, when the height is not a power of two of at least 2, the
     *     column count or the public input count differs from the definition's, the height does not fit it, or a
     *     public input is not canonical
     */
    public TableTrace {
        publicInputs = publicInputs.clone();
        int rows = main.rows();
        if (rows < 2 || Integer.bitCount(rows) != 1) {
            throw new InvalidTraceException(name, "height " + rows + " is not a power of two >= 2");
        }
        if (main.columns() != air.mainWidth()) {
            throw new InvalidTraceException(
                    name,
                    "trace has " + main.columns() + " columns, table '" + air.name() + "' declares " + air.mainWidth());
        }
        int logHeight = Integer.numberOfTrailingZeros(rows);
        java.util.Optional<String> violation = air.shapeViolation(logHeight, publicInputs.length);
        if (violation.isPresent()) {
            throw new InvalidTraceException(name, violation.get());
        }
        requireCanonicalPublicInputs(name, air, publicInputs);
    }

    /**
     * Checks that a table's public inputs are canonical field elements (below the field's modulus), as the
     * transcript and the verifier read them.
     *
     * @param name the table's name, for the error
     * @param air its definition, whose input names the error uses
     * @param publicInputs its public inputs
     * @throws InvalidTraceException naming the table and the first input that is not canonical
     */
    public static void requireCanonicalPublicInputs(String name, Air air, long[] publicInputs) {
        for (int i = 0; i < publicInputs.length; i++) {
            if (!Goldilocks.isCanonical(publicInputs[i])) {
                String input =
                        i < air.publicInputs().size() ? "'" + air.publicInputs().get(i) + "'" : "#" + i;
                throw new InvalidTraceException(name, "public input " + input + " is not a canonical field element");
            }
        }
    }

    /**
     * {@return a trace named after its table definition}
     *
     * @param air the definition
     * @param main the main trace
     * @param publicInputs the public inputs' values, in declaration order
     * @throws InvalidTraceException when the trace does not fit the definition
     */
    public static TableTrace of(Air air, Matrix main, long... publicInputs) {
        return new TableTrace(air.name(), air, main, publicInputs);
    }

    /** {@return a copy of the public inputs' values} */
    @Override
    public long[] publicInputs() {
        return publicInputs.clone();
    }

    /**
     * {@return one public input's value, without copying the array}
     *
     * @param index its position in declaration order
     */
    public long publicInput(int index) {
        return publicInputs[index];
    }

    /** {@return the trace's rows} */
    public int height() {
        return main.rows();
    }

    /** {@return log2 of the trace's rows} */
    public int logHeight() {
        return Integer.numberOfTrailingZeros(main.rows());
    }
}
