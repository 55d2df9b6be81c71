package io.jstark.cli;

import io.jstark.cluster.WorkerAddress;
import io.jstark.cluster.WorkerServer;
import io.jstark.instrument.ByteSize;
import java.nio.file.Path;
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
                    + "hold in RAM at once, e.g. 2G; announced to coordinators, which place tables within it; "
                    + "what does not fit spills (--spill-dir).")
    String memoryBudget;

    @Option(
            names = "--spill-dir",
            paramLabel = "DIR",
            description = "Where the tables placed here spill what the memory budget does not hold in RAM "
                    + "(a directory of their own per proof, removed when it closes); default: the system temp "
                    + "directory.")
    Path spillDirectory;

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
        WorkerServer.serveUntilStopped(address, budget, spillDirectory, tls.tls(), System.out);
        return 0;
    }
}
