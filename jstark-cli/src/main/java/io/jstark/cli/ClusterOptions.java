package io.jstark.cli;

import io.jstark.cluster.Liveness;
import io.jstark.cluster.RemoteBackend;
import io.jstark.cluster.WorkerAddress;
import io.jstark.profile.report.WireRows;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Proving on a cluster: the workers ({@code jstark worker}) that hold the tables, and how to reach them. */
public final class ClusterOptions {
    @Option(
            names = "--workers",
            paramLabel = "HOST:PORT,...",
            description =
                    "Prove on these workers: the tables are placed on them "
                            + "(heaviest first, within each worker's memory budget), each builds its tables from the example's name, size and seed; "
                            + "this process keeps the transcript, FRI and the queries and verifies the proof before writing it.")
    String workers;

    @Option(
            names = "--worker-deadline",
            paramLabel = "SECONDS",
            description = "The most one call to a worker may take, a round over "
                    + "its tables included (default: ${DEFAULT-VALUE}).",
            defaultValue = "600")
    long deadlineSeconds;

    @Option(
            names = "--worker-heartbeat",
            paramLabel = "SECONDS",
            description = "Ask every worker of the proof whether it is alive this "
                    + "often, between calls too (default: ${DEFAULT-VALUE}).",
            defaultValue = "5")
    long heartbeatSeconds;

    @Option(
            names = "--worker-heartbeat-timeout",
            paramLabel = "SECONDS",
            description = "A worker that does not answer a heartbeat "
                    + "within this is lost and its tables move to another worker (default: ${DEFAULT-VALUE}).",
            defaultValue = "30")
    long heartbeatTimeoutSeconds;

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
            throw new Main.UsageException(
                    "--worker-deadline: " + deadlineSeconds + " is not a positive number of seconds");
        }
        if (heartbeatSeconds <= 0 || heartbeatTimeoutSeconds <= 0) {
            throw new Main.UsageException(
                    "--worker-heartbeat and --worker-heartbeat-timeout must be positive numbers of seconds, got "
                            + heartbeatSeconds + " and " + heartbeatTimeoutSeconds);
        }
        return RemoteBackend.onWorkers(addresses)
                .tls(tls.tls())
                .recipe(example, logSize, seed)
                .deadline(Duration.ofSeconds(deadlineSeconds))
                .liveness(
                        new Liveness(Duration.ofSeconds(heartbeatSeconds), Duration.ofSeconds(heartbeatTimeoutSeconds)))
                .build();
    }

    /**
     * The timing report's wire rows: per phase what crossed the wire to and from the workers.
     *
     * @param remote the backend the proof ran on
     * @return one row per phase, in the order the phases first made a call
     */
    static List<WireRows.Row> wireRows(RemoteBackend remote) {
        List<WireRows.Row> rows = new java.util.ArrayList<>();
        remote.traffic()
                .snapshot()
                .forEach((phase, t) ->
                        rows.add(new WireRows.Row(phase, t.calls(), t.sentBytes(), t.receivedBytes(), t.wireNanos())));
        return rows;
    }
}
