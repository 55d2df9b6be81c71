package io.jstark.cluster;

/**
 * A cluster proof that cannot go on: no placement fits the workers, a worker refused or failed a round, or a worker's
 * table is not the one the coordinator claims. The message names the worker and the table where there is one.
 */
public class ClusterException extends RuntimeException {
    /**
     * @param message what went wrong, naming the worker and the table
     */
    public ClusterException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong, naming the worker and the table
     * @param cause the failure underneath (a gRPC status, an I/O error)
     */
    public ClusterException(String message, Throwable cause) {
        super(message, cause);
    }
}
