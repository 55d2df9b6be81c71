package io.jstark.cluster;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.prover.memory.TableDimensions;
import java.util.List;

/**
 * Tables a worker can serve: their definitions, and optionally a recipe that builds their traces from a few bytes of
 * parameters, so that a trace need not cross the network. The coordinator names a source and sends its parameters;
 * each worker looks the source up by name among its own ({@link TableSources}: the examples, and every
 * implementation on its class path or module path, found with {@link java.util.ServiceLoader}), checks that its
 * definitions have the coordinator's digests, and builds the tables placed on it.
 *
 * <p>To prove your own tables on a cluster, implement this interface in a class that both the coordinator and the
 * workers have, list it as a service ({@code META-INF/services/io.jstark.cluster.TableSource}, or {@code provides
 * io.jstark.cluster.TableSource with ...} in a module), and name it with {@code RemoteBackend.Builder#recipe(String,
 * byte[])} (the workers build the traces) or {@code streamingTraces(String)} (the coordinator sends them).
 *
 * <p>The proof's bytes are the local proof's only if {@link #build} gives the same traces on every machine for the same
 * parameters: a recipe must be deterministic (seeded randomness, no clock, no machine-dependent input).
 */
public interface TableSource {
    /**
     * {@return the name the coordinator and the workers know this source by: unique among a worker's sources}
     */
    String name();

    /**
     * {@return the table definitions the statements of this source use: each table names one of them, and its digest
     * must be the coordinator's}
     */
    List<Air> airs();

    /**
     * The tables {@link #build} makes from these parameters, in the statement's order, without building them: the
     * coordinator proves from these shapes when the workers build the traces.
     *
     * @param parameters the recipe's parameters
     * @return each table's name, definition (one of {@link #airs}) and log height
     * @throws IllegalArgumentException when the parameters do not describe a statement of this source
     * @throws UnsupportedOperationException when this source has no recipe (its traces are streamed)
     */
    default List<TableDimensions> shapes(byte[] parameters) {
        throw new UnsupportedOperationException(
                "table source '" + name() + "' has no recipe: its traces are streamed to the workers");
    }

    /**
     * Builds the traces of the statement these parameters describe, in the statement's order: the same parameters
     * give the same traces on every machine. The caller closes each trace's matrix.
     *
     * @param parameters the recipe's parameters
     * @param allocator where the traces' matrices are allocated
     * @return the traces, with the shapes {@link #shapes} gives
     * @throws IllegalArgumentException when the parameters do not describe a statement of this source
     * @throws UnsupportedOperationException when this source has no recipe (its traces are streamed)
     */
    default List<TableTrace> build(byte[] parameters, BufferAllocator allocator) {
        throw new UnsupportedOperationException(
                "table source '" + name() + "' has no recipe: its traces are streamed to the workers");
    }
}
