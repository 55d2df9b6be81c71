package io.jstark.cli;

import io.jstark.cluster.WorkerAddress;
import io.jstark.cluster.WorkerServer;
import io.jstark.instrument.ByteSize;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jstark worker}: serves tables to coordinators ({@code jstark prove --workers}) until the process is stopped
 * (SIGTERM frees what it holds).
 */
@Command(
        name = "worker",
        mixinStandardHelpOptions = true,
        description = "Serve a cluster's coordinators: hold the tables placed here "
                + "and answer the proof's rounds over gRPC, until stopped.")
public final class WorkerCommand implements Callable<Integer> {
    @Option(
            names = "--listen",
            required = true,
            paramLabel = "HOST:PORT",
            description = "The address to serve on (port 0: any free " + "port, printed on the first line).")
    String listen;

    @Option(
            names = "--memory-budget",
            required = true,
            paramLabel = "SIZE",
            description = "The bytes the tables placed here may "
                    + "hold at once, e.g. 2G; announced to coordinators, which place tables within it.")
    String memoryBudget;

    @Mixin
    ClusterTlsOptions tls;

    @Override
    public Integer call() throws Exception {
        WorkerAddress address;
        long budget;
        try {
            address = WorkerAddress.parse(listen);
            budget = ByteSize.parse(memoryBudget);
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException(e.getMessage());
        }
        WorkerServer.serveUntilStopped(address, budget, tls.tls(), System.out);
        return 0;
    }
}
