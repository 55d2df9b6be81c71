package io.jstark.cluster;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.examples.Example;
import io.jstark.examples.TableShape;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.prover.memory.TableDimensions;
import java.nio.ByteBuffer;
import java.util.List;

/** An example as a table source: its recipe's parameters are the example's log size and seed. */
record ExampleSource(Example example) implements TableSource {
    /** Bytes of the parameters: the log size (4 bytes) and the seed (8 bytes), big-endian. */
    static final int PARAMETER_BYTES = Integer.BYTES + Long.BYTES;

    /**
     * The parameters of an example's recipe.
     *
     * @param logSize the example's log size
     * @param seed its seed
     * @return the 12 bytes that {@link #build} reads back
     */
    static byte[] parameters(int logSize, long seed) {
        return ByteBuffer.allocate(PARAMETER_BYTES)
                .putInt(logSize)
                .putLong(seed)
                .array();
    }

    @Override
    public String name() {
        return example.name();
    }

    @Override
    public List<Air> airs() {
        return example.airs();
    }

    @Override
    public List<TableDimensions> shapes(byte[] parameters) {
        return TableShape.dimensions(example.shapes(logSize(parameters)));
    }

    @Override
    public List<TableTrace> build(byte[] parameters, BufferAllocator allocator) {
        return example.generate(logSize(parameters), ByteBuffer.wrap(parameters).getLong(Integer.BYTES), allocator)
                .tables();
    }

    private int logSize(byte[] parameters) {
        if (parameters.length != PARAMETER_BYTES) {
            throw new IllegalArgumentException("example '" + name() + "': a recipe's parameters are " + PARAMETER_BYTES
                    + " bytes (log size, seed), got " + parameters.length);
        }
        int logSize = ByteBuffer.wrap(parameters).getInt();
        example.requireLogSize(logSize);
        return logSize;
    }
}
