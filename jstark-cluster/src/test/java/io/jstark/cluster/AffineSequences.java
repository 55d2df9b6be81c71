package io.jstark.cluster;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.expr.Expr;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.prover.memory.TableDimensions;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A table source that is not an example, as a user would write one: a counter (x' = x + step) of 2^k rows and a
 * geometric sequence (y' = y * ratio) of 2^(k-1) rows, their start values and steps public. The recipe's parameters
 * are k (one byte) and a start value (8 bytes, big-endian) from which both sequences are derived. Listed as a service
 * in this module's test resources, so the worker JVMs the tests start find it on their class path.
 */
public final class AffineSequences implements TableSource {
    /** The name the coordinator asks the workers for. */
    public static final String NAME = "test-affine-sequences";

    private static final Air COUNTER = counter();
    private static final Air GEOMETRIC = geometric();

    private static Air counter() {
        AirBuilder b = Air.builder("counter");
        Expr.MainCell x = b.main("x");
        b.transition("x' = x + step", x.next().sub(x.add(b.publicInput("step"))));
        b.first("x starts at start", x.sub(b.publicInput("start")));
        b.last("x ends at end", x.sub(b.publicInput("end")));
        return b.build();
    }

    private static Air geometric() {
        AirBuilder b = Air.builder("geometric");
        Expr.MainCell y = b.main("y");
        b.transition("y' = y * ratio", y.next().sub(y.mul(b.publicInput("ratio"))));
        b.first("y starts at start", y.sub(b.publicInput("start")));
        return b.build();
    }

    /**
     * The parameters of a statement.
     *
     * @param logRows log2 of the counter's rows, 4 to 20
     * @param start the counter's start value
     * @return the 9 bytes {@link #build} reads
     */
    public static byte[] parameters(int logRows, long start) {
        return ByteBuffer.allocate(9).put((byte) logRows).putLong(start).array();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Air> airs() {
        return List.of(COUNTER, GEOMETRIC);
    }

    @Override
    public List<TableDimensions> shapes(byte[] parameters) {
        int logRows = logRows(parameters);
        return List.of(
                new TableDimensions("counter", COUNTER, logRows),
                new TableDimensions("geometric", GEOMETRIC, logRows - 1));
    }

    @Override
    public List<TableTrace> build(byte[] parameters, BufferAllocator allocator) {
        int logRows = logRows(parameters);
        long start = Goldilocks.reduce(ByteBuffer.wrap(parameters).getLong(1));
        long step = Goldilocks.add(start, 7);
        long ratio = Goldilocks.add(start, 3);
        List<TableTrace> traces = new ArrayList<>(2);
        long[] counter = new long[1 << logRows];
        counter[0] = start;
        for (int i = 1; i < counter.length; i++) {
            counter[i] = Goldilocks.add(counter[i - 1], step);
        }
        traces.add(new TableTrace("counter", COUNTER, column(allocator, "counter", counter), new long[] {
            step, start, counter[counter.length - 1]
        }));
        long[] geometric = new long[1 << (logRows - 1)];
        geometric[0] = start;
        for (int i = 1; i < geometric.length; i++) {
            geometric[i] = Goldilocks.mul(geometric[i - 1], ratio);
        }
        traces.add(new TableTrace(
                "geometric", GEOMETRIC, column(allocator, "geometric", geometric), new long[] {ratio, start}));
        return traces;
    }

    private static Matrix column(BufferAllocator allocator, String name, long[] values) {
        Matrix m = Matrix.allocate(allocator, name + "/main", values.length, 1);
        m.writeColumn(0, 0, values, 0, values.length);
        return m;
    }

    private static int logRows(byte[] parameters) {
        if (parameters.length != 9 || parameters[0] < 4 || parameters[0] > 20) {
            throw new IllegalArgumentException("parameters are 9 bytes, the first log2 of the rows (4 to 20); got "
                    + parameters.length + " bytes");
        }
        return parameters[0];
    }
}
