package io.jstark.air.trace;

import io.jstark.air.Air;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;

/**
 * One table instance to prove: its definition, its main trace (natural row order, 2^k rows) and its
 * public inputs. The matrix is owned by the caller (closing it is theirs to do after proving).
 */
public record TableTrace(String name, Air air, Matrix main, long[] publicInputs) {
    public TableTrace {
        publicInputs = publicInputs.clone();
        int rows = main.rows();
        if (rows < 2 || Integer.bitCount(rows) != 1) {
            throw new InvalidTraceException(name, "height " + rows + " is not a power of two >= 2");
        }
        if (main.columns() != air.mainWidth()) {
            throw new InvalidTraceException(name, "trace has " + main.columns() + " columns, table '" + air.name() + "' declares "
                    + air.mainWidth());
        }
        int logHeight = Integer.numberOfTrailingZeros(rows);
        java.util.Optional<String> violation = air.shapeViolation(logHeight, publicInputs.length);
        if (violation.isPresent()) {
            throw new InvalidTraceException(name, violation.get());
        }
        for (int i = 0; i < publicInputs.length; i++) {
            if (!Goldilocks.isCanonical(publicInputs[i])) {
                throw new InvalidTraceException(name, "public input '" + air.publicInputs().get(i) + "' is not a canonical field element");
            }
        }
    }

    /** A trace named after its table. */
    public static TableTrace of(Air air, Matrix main, long... publicInputs) {
        return new TableTrace(air.name(), air, main, publicInputs);
    }

    @Override
    public long[] publicInputs() {
        return publicInputs.clone();
    }

    public long publicInput(int index) {
        return publicInputs[index];
    }

    public int height() {
        return main.rows();
    }

    public int logHeight() {
        return Integer.numberOfTrailingZeros(main.rows());
    }
}
