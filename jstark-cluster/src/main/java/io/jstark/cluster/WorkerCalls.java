package io.jstark.cluster;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthGrpc;
import io.jstark.cluster.wire.WorkerGrpc;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The coordinator's calls to its workers, one channel per worker: stubs whose calls carry the backend's deadline
 * and count their traffic under a phase, and the threads that call every worker at once. A failed call is reported as
 * a {@link ClusterException} naming the worker and the operation.
 */
final class WorkerCalls implements AutoCloseable {
    private final List<WorkerAddress> addresses;
    private final List<ManagedChannel> channels;
    private final Duration deadline;
    private final Liveness liveness;
    private final ExecutorService calls = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "cluster-call");
        t.setDaemon(true);
        return t;
    });

    /**
     * Calls over these channels, one per worker in the workers' order; closing closes them.
     */
    WorkerCalls(List<WorkerAddress> addresses, List<ManagedChannel> channels, Duration deadline, Liveness liveness) {
        this.addresses = List.copyOf(addresses);
        this.channels = List.copyOf(channels);
        this.deadline = deadline;
        this.liveness = liveness;
    }

    /** {@return the workers, in the order placement breaks ties by} */
    List<WorkerAddress> workers() {
        return addresses;
    }

    /** {@return the most any one call to a worker may take} */
    Duration deadline() {
        return deadline;
    }

    /** {@return how the workers' liveness is watched between calls} */
    Liveness liveness() {
        return liveness;
    }

    /** A stub for one call to {@code worker}, its traffic counted under {@code phase}, with the backend's deadline. */
    WorkerGrpc.WorkerBlockingStub stub(int worker, String phase) {
        return WorkerGrpc.newBlockingStub(channels.get(worker))
                .withOption(Traffic.PHASE, phase)
                .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A stub for one heartbeat to {@code worker}: the liveness's timeout, not the call deadline. */
    WorkerGrpc.WorkerBlockingStub heartbeatStub(int worker) {
        return WorkerGrpc.newBlockingStub(channels.get(worker))
                .withOption(Traffic.PHASE, "heartbeat")
                .withDeadlineAfter(liveness.timeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A streaming stub for one call to {@code worker}, its traffic counted under {@code phase}. */
    WorkerGrpc.WorkerStub asyncStub(int worker, String phase) {
        return WorkerGrpc.newStub(channels.get(worker))
                .withOption(Traffic.PHASE, phase)
                .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A stub for the standard health check of {@code worker}, counted under {@code phase}. */
    HealthGrpc.HealthBlockingStub healthStub(int worker, String phase) {
        return HealthGrpc.newBlockingStub(channels.get(worker))
                .withOption(Traffic.PHASE, phase)
                .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Runs {@code task} on the call threads (a heartbeat).
     *
     * @return false when the connections are closed and the task was not run
     */
    boolean submit(Runnable task) {
        try {
            calls.execute(task);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    interface WorkerCall<R> {
        R call(int worker);
    }

    /** {@return 0, 1, ..., n - 1} */
    static List<Integer> indices(int n) {
        List<Integer> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(i);
        }
        return out;
    }

    /**
     * Runs {@code call} for every worker at once and waits for all; the first failure (in worker order) is thrown as a
     * {@link ClusterException} naming the worker and the operation.
     */
    <R> List<R> onEach(List<Integer> workers, WorkerCall<R> call, String operation) {
        List<Future<R>> futures = new ArrayList<>(workers.size());
        for (int w : workers) {
            futures.add(calls.submit(() -> call.call(w)));
        }
        List<R> out = new ArrayList<>(workers.size());
        RuntimeException failure = null;
        for (int k = 0; k < futures.size(); k++) {
            try {
                out.add(futures.get(k).get());
            } catch (ExecutionException e) {
                out.add(null);
                if (failure == null) {
                    failure = failed(workers.get(k), operation, e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClusterException("interrupted waiting for the workers' " + operation, e);
            }
        }
        if (failure != null) {
            throw failure;
        }
        return out;
    }

    /** A worker's failure as the coordinator reports it: the worker, the operation, and the worker's own words. */
    RuntimeException failed(int worker, String operation, Throwable cause) {
        if (cause instanceof ClusterException c && c.getMessage().startsWith("worker ")) {
            return c;
        }
        String why = cause instanceof StatusRuntimeException s
                ? switch (s.getStatus().getCode()) {
                    case DEADLINE_EXCEEDED -> "no answer within the deadline of " + deadline;
                    case UNAVAILABLE -> "unreachable (" + s.getStatus().getDescription() + ")";
                    case NOT_FOUND ->
                        "lost the proof's session (" + s.getStatus().getDescription() + ")";
                    default -> s.getStatus().getCode() + ": " + s.getStatus().getDescription();
                }
                : cause.toString();
        return new ClusterException("worker " + addresses.get(worker) + ", " + operation + ": " + why, cause);
    }

    /**
     * Whether {@code e} says that its worker is lost (unreachable, past the deadline, without the proof's session, or
     * cancelled because another call found it lost), rather than that it answered with an error.
     */
    static boolean lostWorker(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof StatusRuntimeException s) {
                Status.Code code = s.getStatus().getCode();
                // a connection that closes under a call starting on it (the worker just died) comes back as UNKNOWN
                // NOT_FOUND: the worker no longer holds the session (restarted between two calls, or its lease
                // expired), so the tables placed there are gone as surely as a dead worker's
                return code == Status.Code.UNAVAILABLE
                        || code == Status.Code.NOT_FOUND
                        || code == Status.Code.DEADLINE_EXCEEDED
                        || code == Status.Code.CANCELLED
                        || code == Status.Code.UNKNOWN && s.getCause() instanceof IOException;
            }
        }
        return false;
    }

    /** Stops the call threads and closes the channels. */
    @Override
    public void close() {
        calls.shutdownNow();
        for (ManagedChannel c : channels) {
            c.shutdownNow();
        }
        for (ManagedChannel c : channels) {
            try {
                c.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
