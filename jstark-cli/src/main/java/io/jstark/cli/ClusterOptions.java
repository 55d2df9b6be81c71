package io.jstark.cli;

import io.jstark.cluster.RemoteBackend;
import io.jstark.cluster.WorkerAddress;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Proving on a cluster: the workers ({@code jstark worker}) that hold the tables, and how to reach them. */
public final class ClusterOptions {
    @Option(names = "--workers", paramLabel = "HOST:PORT,...", description = "Prove on these workers: the tables are placed on them "
            + "(heaviest first, within each worker's memory budget), each builds its tables from the example's name, size and seed; "
            + "this process keeps the transcript, FRI and the queries and verifies the proof before writing it.")
    String workers;

    @Option(names = "--worker-deadline", paramLabel = "SECONDS", description = "The most one call to a worker may take, a round over "
            + "its tables included (default: ${DEFAULT-VALUE}).", defaultValue = "600")
    long deadlineSeconds;

    @Mixin
    ClusterTlsOptions tls;

    /** {@return whether the proof runs on workers} */
    boolean enabled() {
        return workers != null;
    }

    /**
     * The backend for these workers, or null without {@code --workers}.
     *
     * @param example the example's name
     * @param logSize its log size
     * @param seed its seed
     * @return the backend, the caller's to close, or null
     */
    RemoteBackend backend(String example, int logSize, long seed) {
        if (!enabled()) {
            return null;
        }
        List<WorkerAddress> addresses;
        try {
            addresses = WorkerAddress.parseList(workers);
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException("--workers: " + e.getMessage());
        }
        if (deadlineSeconds <= 0) {
            throw new Main.UsageException("--worker-deadline: " + deadlineSeconds + " is not a positive number of seconds");
        }
        return RemoteBackend.fromRecipe(addresses, tls.tls(), example, logSize, seed, Duration.ofSeconds(deadlineSeconds));
    }
}
