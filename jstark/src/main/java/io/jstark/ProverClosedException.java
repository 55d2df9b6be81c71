package io.jstark;

/** A {@link JstarkProver} was used after {@link JstarkProver#close()}: its key's buffers and its pool are released. */
public final class ProverClosedException extends IllegalStateException {
    ProverClosedException(String operation) {
        super("JstarkProver." + operation
                + "() after close(): this prover's buffers and worker pool are released; build a new one "
                + "with Jstark.prover(...)");
    }
}
