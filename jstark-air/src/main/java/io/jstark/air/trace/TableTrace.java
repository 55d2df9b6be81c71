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
        if (air.fixedLogHeight() >= 0 && rows != 1 << air.fixedLogHeight()) {
            throw new InvalidTraceException(name, "table '" + air.name() + "' has a fixed height of 2^" + air.fixedLogHeight()
                    + " rows, trace has " + rows);
        }
        if (publicInputs.length != air.publicInputs().size()) {
            throw new InvalidTraceException(name, "expected " + air.publicInputs().size() + " public inputs " + air.publicInputs()
                    + ", got " + publicInputs.length);
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
