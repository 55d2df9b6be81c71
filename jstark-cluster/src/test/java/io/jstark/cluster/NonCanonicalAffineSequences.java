package io.jstark.cluster;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.prover.memory.TableDimensions;
import java.util.List;

/**
 * {@link AffineSequences} with a faulty recipe: its counter's cell at row {@link #ROW} holds 2^64 - 1, which is not a
 * field element. Listed as a service beside it, so that the worker JVMs the tests start build it.
 */
public final class NonCanonicalAffineSequences implements TableSource {
    /** The name the coordinator asks the workers for. */
    public static final String NAME = "test-non-canonical-affine-sequences";
    /** The counter's row that holds the non-canonical cell. */
    public static final int ROW = 5;

    private final AffineSequences sequences = new AffineSequences();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Air> airs() {
        return sequences.airs();
    }

    @Override
    public List<TableDimensions> shapes(byte[] parameters) {
        return sequences.shapes(parameters);
    }

    @Override
    public List<TableTrace> build(byte[] parameters, BufferAllocator allocator) {
        List<TableTrace> traces = sequences.build(parameters, allocator);
        traces.get(0).main().set(ROW, 0, -1L);
        return traces;
    }
}
