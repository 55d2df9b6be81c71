package io.jstark.cluster;

import io.grpc.Server;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.jstark.cluster.wire.WorkerGrpc;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A worker: serves the {@code Worker} service and the standard gRPC health service on one address, holding the tables
 * the coordinators place on it under its memory budget.
 */
public final class WorkerServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.jstark.cluster.worker");
    /** The health service's name for the worker service. */
    public static final String SERVICE = WorkerGrpc.SERVICE_NAME;
    /** The largest message a worker accepts: a chunk of a streamed trace, with room to spare. */
    static final int MAX_MESSAGE_BYTES = 64 << 20;

    private final Server server;
    private final HealthStatusManager health;
    private final WorkerService service;
    private final String host;
    private final int port;

    private WorkerServer(Server server, HealthStatusManager health, WorkerService service, String host) {
        this.server = server;
        this.health = health;
        this.service = service;
        this.host = host;
        this.port = server.getPort();
    }

    /**
     * Starts a worker.
     *
     * @param host the address to listen on (plaintext only on a loopback address)
     * @param port the port, 0 for any free one ({@link #port()} tells)
     * @param memoryBudget the bytes the tables placed here may hold at once
     * @param tls mutual TLS, or {@link ClusterTls#PLAINTEXT} on loopback
     * @return the running worker
     * @throws IOException when the address cannot be bound or the TLS files not read
     */
    public static WorkerServer start(String host, int port, long memoryBudget, ClusterTls tls) throws IOException {
        return start(host, port, memoryBudget, null, tls);
    }

    /**
     * Starts a worker that spills what its budget does not hold in RAM to {@code spillDirectory}.
     *
     * @param host the address to listen on (plaintext only on a loopback address)
     * @param port the port, 0 for any free one ({@link #port()} tells)
     * @param memoryBudget the bytes the tables placed here may hold in RAM at once
     * @param spillDirectory where spill files go (a directory of their own per proof, removed when the proof closes),
     *     null for the system temp directory
     * @param tls mutual TLS, or {@link ClusterTls#PLAINTEXT} on loopback
     * @return the running worker
     * @throws IOException when the address cannot be bound or the TLS files not read
     */
    public static WorkerServer start(String host, int port, long memoryBudget, Path spillDirectory, ClusterTls tls)
            throws IOException {
        WorkerService service = new WorkerService(new WorkerStorage(memoryBudget, spillDirectory));
        HealthStatusManager health = new HealthStatusManager();
        Server server = KeepAlive.DEFAULT
                .onServer(NettyServerBuilder.forAddress(new InetSocketAddress(host, port), tls.serverCredentials(host)))
                .addService(service)
                .addService(health.getHealthService())
                .maxInboundMessageSize(MAX_MESSAGE_BYTES)
                .build()
                .start();
        health.setStatus(SERVICE, HealthCheckResponse.ServingStatus.SERVING);
        WorkerServer worker = new WorkerServer(server, health, service, host);
        service.servesAt(worker.address());
        LOG.log(
                System.Logger.Level.INFO,
                "worker on {0}:{1}, memory budget {2} bytes, spill directory {3}, table sources {4}, {5}",
                host,
                String.valueOf(worker.port()),
                memoryBudget,
                spillDirectory == null ? System.getProperty("java.io.tmpdir") : spillDirectory,
                service.sourceNames(),
                tls.enabled() ? "mutual TLS" : "PLAINTEXT on loopback (no TLS: for one machine only)");
        return worker;
    }

    /**
     * Starts a worker, says {@code listening HOST:PORT} on {@code out} once it serves, and serves until the process is
     * stopped (SIGTERM closes it: {@link #close}).
     *
     * @param listen the address to listen on
     * @param memoryBudget the bytes the tables placed here may hold at once
     * @param tls mutual TLS, or {@link ClusterTls#PLAINTEXT} on loopback
     * @param out where the listening line goes
     * @throws IOException when the address cannot be bound or the TLS files not read
     * @throws InterruptedException when the serving thread is interrupted
     */
    public static void serveUntilStopped(
            WorkerAddress listen, long memoryBudget, ClusterTls tls, java.io.PrintStream out)
            throws IOException, InterruptedException {
        serveUntilStopped(listen, memoryBudget, null, tls, out);
    }

    /**
     * Starts a worker that spills to {@code spillDirectory}, says {@code listening HOST:PORT} on {@code out} once it
     * serves, and serves until the process is stopped (SIGTERM closes it: {@link #close}).
     *
     * @param listen the address to listen on
     * @param memoryBudget the bytes the tables placed here may hold in RAM at once
     * @param spillDirectory where spill files go, null for the system temp directory
     * @param tls mutual TLS, or {@link ClusterTls#PLAINTEXT} on loopback
     * @param out where the listening line goes
     * @throws IOException when the address cannot be bound or the TLS files not read
     * @throws InterruptedException when the serving thread is interrupted
     */
    public static void serveUntilStopped(
            WorkerAddress listen, long memoryBudget, Path spillDirectory, ClusterTls tls, java.io.PrintStream out)
            throws IOException, InterruptedException {
        WorkerServer worker = start(listen.host(), listen.port(), memoryBudget, spillDirectory, tls);
        Runtime.getRuntime().addShutdownHook(new Thread(worker::close, "worker-shutdown"));
        out.println("listening " + worker.address());
        out.flush();
        worker.awaitTermination();
    }

    /** {@return the port the worker listens on} */
    public int port() {
        return port;
    }

    /** {@return the address coordinators name it by: host:port} */
    public String address() {
        return host + ":" + port();
    }

    /** {@return the proofs it holds tables of now} */
    public int openProofs() {
        return service.openSessions();
    }

    /**
     * Waits until the worker is stopped.
     *
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public void awaitTermination() throws InterruptedException {
        server.awaitTermination();
    }

    /** Stops serving (health NOT_SERVING first), lets running calls finish for a few seconds, then frees every table held. */
    @Override
    public void close() {
        health.enterTerminalState();
        server.shutdown();
        try {
            if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
                server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            server.shutdownNow();
            Thread.currentThread().interrupt();
        } finally {
            service.closeAll();
        }
        LOG.log(System.Logger.Level.INFO, "worker on {0} stopped", address());
    }
}
